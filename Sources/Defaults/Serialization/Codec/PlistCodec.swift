import Foundation

/// The result of encoding a value: an object to store, or nothing (a `nil` optional).
enum EncodedValue {
	case object(Any)
	case absent
}

/**
How one Swift type maps to a property-list object and back.

A codec is resolved once per type (the dynamic type checks happen then, not on
every access) and composed from the codecs of its parts, so a `Key` keeps one
and reads without any further lookup. A codec is immutable once built, which is
why a `Key` holding one can be shared between threads. Encoding is strict: it fails rather than
storing something Foundation would reject or mangle. Decoding is lenient about
the shapes Linux Foundation hands back (`Int` for `Int8`, `Double` for `Float`,
arrays of optionals) but never guesses across kinds.
*/
struct PlistCodec<Value> {
	let encode: (Value) throws(SerializationError) -> EncodedValue
	let decode: (Any) throws(SerializationError) -> Value

	/**
	Whether a key should remember what it decoded (see ``DecodedValueCache``):
	true when decoding does real work (JSON, archives, bridges) and the result
	is a value that can be handed out more than once. Scalars decode with a
	cast, cheaper than any cache, and class instances could be mutated by the
	caller, so neither is remembered.
	*/
	let cachesDecodedValues: Bool

	/**
	Whether what it decodes holds no class instance a caller could change, so
	that one decoded value may be handed to every read of the same stored
	object (``Defaults/Key``'s last read): scalars, and whatever
	``cachesDecodedValues`` (values, not instances) says, through containers.
	*/
	let decodesToValues: Bool

	init(
		encode: @escaping (Value) throws(SerializationError) -> EncodedValue,
		decode: @escaping (Any) throws(SerializationError) -> Value,
		cachesDecodedValues: Bool = false,
		decodesToValues: Bool? = nil
	) {
		self.encode = encode
		self.decode = decode
		self.cachesDecodedValues = cachesDecodedValues
		self.decodesToValues = decodesToValues ?? cachesDecodedValues
	}

	/// Decoding through a bridge is worth remembering unless it produces a class instance.
	static var bridgedValuesAreCacheable: Bool {
		!(Value.self is AnyObject.Type)
	}
}

/// Types that supply their own codec instead of going through their bridge.
protocol PlistCodecProviding {
	static var plistCodec: PlistCodec<Self> { get }
}

extension PlistCodec where Value: Defaults.Serializable {
	/// The codec for `Value`, chosen from its conformances once per type and then reused.
	static func resolve() -> PlistCodec<Value> {
		// Boxed in a class kept by the value type's identity, so the box found is of this very type: taken back without
		// a checked cast, which costs a declaration more than the rest of the lookup.
		if let cached = DefaultsSystem.codecs.withLock({ $0[ObjectIdentifier(Value.self)] }) {
			return unsafeDowncast(cached, to: Box.self).codec
		}

		let codec = choose()
		DefaultsSystem.codecs.withLock { $0[ObjectIdentifier(Value.self)] = Box(codec) }
		return codec
	}

	/// A resolved codec, as the codecs' cache keeps it (its closures are pure: any thread may call them).
	final class Box {
		let codec: PlistCodec<Value>

		init(_ codec: PlistCodec<Value>) {
			self.codec = codec
		}
	}

	private static func choose() -> PlistCodec<Value> {
		if let provider = Value.self as? any PlistCodecProviding.Type {
			return provided(by: provider)
		}

		if Value.isNativelySupportedType {
			return native
		}

		if
			let intermediate = Value.Bridge.Serializable.self as? any Defaults.Serializable.Type,
			intermediate != Value.self
		{
			return bridged(through: intermediate)
		}

		return bridgedToPropertyList
	}

	private static func provided<Provider: PlistCodecProviding>(by provider: Provider.Type) -> PlistCodec<Value> {
		// `Provider` is `Value`, checked by the cast in `resolve()`.
		Provider.plistCodec as! PlistCodec<Value>
	}

	/// A user type that declares itself natively supported: stored as it is.
	private static var native: PlistCodec<Value> {
		PlistCodec(
			encode: { value throws(SerializationError) in .object(try PropertyListNormalizer.normalize(value)) },
			decode: { object throws(SerializationError) in
				guard let value = object as? Value else {
					throw .mismatch(object, expected: Value.self)
				}

				return value
			}
		)
	}

	/// The bridge produces another serializable type, whose own codec continues the job.
	private static func bridged<Intermediate: Defaults.Serializable>(
		through intermediate: Intermediate.Type
	) -> PlistCodec<Value> {
		let next = PlistCodec<Intermediate>.resolve()

		return PlistCodec(
			encode: { value throws(SerializationError) in
				guard
					let input = value as? Value.Bridge.Value,
					let serialized = Value.bridge.serialize(input) as? Intermediate
				else {
					throw .bridgeRejected(Value.Bridge.self, reading: false)
				}

				return try next.encode(serialized)
			},
			decode: { object throws(SerializationError) in
				let intermediate = try next.decode(object)

				guard
					let serialized = intermediate as? Value.Bridge.Serializable,
					let value = Value.bridge.deserialize(serialized) as? Value
				else {
					throw .bridgeRejected(Value.Bridge.self, reading: true)
				}

				return value
			},
			cachesDecodedValues: bridgedValuesAreCacheable
		)
	}

	/// The bridge produces a property-list object directly (`Any`, `[Any]`, `[String: Any]`).
	private static var bridgedToPropertyList: PlistCodec<Value> {
		PlistCodec(
			encode: { value throws(SerializationError) in
				guard
					let input = value as? Value.Bridge.Value,
					let serialized = Value.bridge.serialize(input)
				else {
					throw .bridgeRejected(Value.Bridge.self, reading: false)
				}

				return .object(try PropertyListNormalizer.normalize(serialized))
			},
			decode: { object throws(SerializationError) in
				guard
					let serialized = object as? Value.Bridge.Serializable,
					let value = Value.bridge.deserialize(serialized) as? Value
				else {
					throw .bridgeRejected(Value.Bridge.self, reading: true)
				}

				return value
			},
			cachesDecodedValues: bridgedValuesAreCacheable
		)
	}
}

extension PlistCodec {
	/// Encodes a value that must produce an object (not a `nil` optional).
	func encodeObject(_ value: Value) throws(SerializationError) -> Any {
		switch try encode(value) {
		case .object(let object):
			return object
		case .absent:
			throw SerializationError("nil cannot be stored here")
		}
	}
}
