import Foundation

extension Defaults {
	/**
	A type-erased serializable value, for heterogeneous collections such as `[String: AnySerializable]`.

	It holds the value in its stored form, so it is `Sendable` and `Hashable`;
	`get()` decodes it as whatever type you ask for. Prefer typed keys where you
	can: every `get()` decodes again.

	```swift
	extension Defaults.Keys {
		static let magic = Key<[String: Defaults.AnySerializable]>("magic", default: [:])
	}

	Defaults[.magic]["unicorn"] = "🦄"
	Defaults[.magic]["count"] = 3
	Defaults[.magic]["mime"] = Defaults.AnySerializable(Mime.json)

	let mime: Mime? = Defaults[.magic]["mime"]?.get()
	```
	*/
	public struct AnySerializable: Defaults.Serializable, Hashable, Sendable {
		/// Stores it as the stored form of the wrapped value.
		public static let bridge = AnyBridge()

		/// The wrapped value in its stored form; `nil` for the `nil` literal.
		package var storage: PropertyListValue?

		package init(storage: PropertyListValue?) {
			self.storage = storage
		}

		/**
		Wraps a serializable value.

		A value that cannot be stored is reported as a diagnostic and wraps `nil`.

		```swift
		let wrapped = Defaults.AnySerializable(URL(string: "https://example.com")!)
		```
		*/
		public init<Value: Defaults.Serializable>(_ value: Value) {
			self.storage = Self.stored(value)
		}

		/**
		The wrapped value decoded as `Value`, or `nil` if it is not one.

		```swift
		let count: Int? = Defaults[.magic]["count"]?.get()
		```
		*/
		public func get<Value: Defaults.Serializable>() -> Value? {
			guard let storage else {
				return nil
			}

			return try? PlistCodec<Value>.resolve().decode(storage.object)
		}

		/**
		The wrapped value decoded as `type`, for when inference cannot tell the type.

		```swift
		if let mime = Defaults[.magic]["mime"]?.get(Mime.self) {
			print(mime.rawValue)
		}
		```
		*/
		public func get<Value: Defaults.Serializable>(_: Value.Type) -> Value? {
			get()
		}

		/**
		Replaces the wrapped value.

		```swift
		Defaults[.any].set(Mime.stream)
		```
		*/
		public mutating func set<Value: Defaults.Serializable>(_ newValue: Value) {
			storage = Self.stored(newValue)
		}

		/**
		Replaces the wrapped value, stored as `type`: for a literal whose type inference would pick another.

		```swift
		Defaults[.any].set(1, type: Double.self) // stored as the Double 1.0, not the Int 1
		```
		*/
		public mutating func set<Value: Defaults.Serializable>(_ newValue: Value, type: Value.Type) {
			set(newValue)
		}

		private static func stored<Value: Defaults.Serializable>(_ value: Value) -> PropertyListValue? {
			do {
				guard case .object(let object) = try PlistCodec<Value>.resolve().encode(value) else {
					return nil
				}

				return PropertyListValue(object)
			} catch {
				DiagnosticReporter.report(.unencodableValue, key: nil, "AnySerializable cannot hold \(Value.self): \(error)")
				return nil
			}
		}

		/// Wraps an untyped literal element, storing it through its own codec when it is serializable.
		init(literal value: Any) {
			do {
				self.storage = PropertyListValue(try PropertyListNormalizer.normalize(value))
			} catch {
				DiagnosticReporter.report(.unencodableValue, key: nil, "AnySerializable cannot hold \(type(of: value)): \(error)")
				self.storage = nil
			}
		}
	}

	/**
	Stores a ``Defaults/AnySerializable`` as the stored form of the value it wraps.

	```swift
	let any = Defaults.Key<Defaults.AnySerializable>("any", default: 1)
	Defaults[any] = "🦄" // stored as the string 🦄
	```
	*/
	public struct AnyBridge: Bridge, Sendable {
		public typealias Value = Defaults.AnySerializable
		public typealias Serializable = Any

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Serializable? {
			value?.storage?.object
		}

		public func deserialize(_ object: Serializable?) -> Value? {
			object.flatMap(PropertyListValue.init).map { Value(storage: $0) }
		}
	}
}

extension Defaults.AnySerializable: PlistCodecProviding {
	static var plistCodec: PlistCodec<Self> {
		PlistCodec(
			encode: { value in value.storage.map { .object($0.object) } ?? .absent },
			decode: { object throws(SerializationError) in
				guard let storage = PropertyListValue(object) else {
					throw .mismatch(object, expected: Self.self)
				}

				return Self(storage: storage)
			}
		)
	}
}
