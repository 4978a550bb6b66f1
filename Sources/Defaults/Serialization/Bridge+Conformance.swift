import Foundation

extension Defaults {
	/**
	Checks a bridge against the ``Defaults/Bridge`` requirements and returns what it breaks.

	For each value it checks that `serialize` produces something, that the
	result is storable (a property list, or a serializable type whose own bridge
	produces one), that it survives the trip through storage, and that
	`deserialize` gives back an equal value. It also checks that `nil`
	serializes to `nil`. An empty result means the bridge conforms.

	Run it in your tests for every custom bridge:

	<!-- check: test -->
	```swift
	import Defaults
	import Testing

	struct User: Equatable {
		var name: String
		var age: Int
	}

	struct UserBridge: Defaults.Bridge {
		func serialize(_ value: User?) -> [String: String]? {
			value.map { ["name": $0.name, "age": String($0.age)] }
		}

		func deserialize(_ object: [String: String]?) -> User? {
			guard let object, let name = object["name"], let age = object["age"].flatMap({ Int($0) }) else {
				return nil
			}

			return User(name: name, age: age)
		}
	}

	@Test func userBridgeConforms() {
		let problems = Defaults.bridgeViolations(
			of: UserBridge(),
			roundTripping: [User(name: "Ada", age: 36), User(name: "", age: 0)]
		)
		#expect(problems.isEmpty, "\(problems)")
	}
	```
	*/
	public static func bridgeViolations<B: Bridge>(of bridge: B, roundTripping values: [B.Value]) -> [String] where B.Value: Equatable {
		var violations: [String] = []
		if bridge.serialize(nil) != nil {
			violations.append("serialize(nil) must return nil")
		}

		for value in values {
			guard let serialized = bridge.serialize(value) else {
				violations.append("serialize(\(value)) returned nil")
				continue
			}

			let restored: B.Serializable
			do {
				restored = try BridgeStorageTrip.roundTrip(serialized)
			} catch {
				violations.append("the serialized form of \(value) cannot be stored: \(error)")
				continue
			}

			guard let deserialized = bridge.deserialize(restored) else {
				violations.append("deserialize returned nil for the stored form of \(value)")
				continue
			}

			if deserialized != value {
				violations.append("\(value) came back as \(deserialized)")
			}
		}

		return violations
	}
}

/// Sends a bridge's output through the same conversion the store applies, and back.
private enum BridgeStorageTrip {
	static func roundTrip<Serialized>(_ serialized: Serialized) throws(SerializationError) -> Serialized {
		if let serializable = serialized as? any Defaults.Serializable {
			return try roundTripSerializable(serializable, as: Serialized.self)
		}

		let stored = try PropertyListNormalizer.normalize(serialized)
		guard let restored = stored as? Serialized else {
			throw SerializationError("stored form \(StoredValueDescription.of(stored)) does not read back as \(Serialized.self)")
		}

		return restored
	}

	private static func roundTripSerializable<Value: Defaults.Serializable, Serialized>(
		_ value: Value,
		as _: Serialized.Type
	) throws(SerializationError) -> Serialized {
		let codec = PlistCodec<Value>.resolve()
		let decoded = try codec.decode(try codec.encodeObject(value))
		guard let restored = decoded as? Serialized else {
			throw SerializationError("\(Value.self) does not read back as \(Serialized.self)")
		}

		return restored
	}
}
