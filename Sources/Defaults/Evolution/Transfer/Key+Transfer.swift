import Foundation

/// What export and import need from a typed key, whatever its value type.
protocol TransferableKey {
	var name: String { get }

	/// The stored object as JSON a person can read: the value itself when its type is `Encodable` (a `Codable` value as a JSON object), else its stored form.
	func exportedJSON(ofStored object: Any) -> JSONValue?

	/// The stored form of an imported JSON value, checked by decoding it as the key's type; `nil` removes the value (`null` for an optional).
	func storedForm(ofJSON json: JSONValue) throws(TransferProblem) -> PropertyListValue?

	/// The stored form of an imported property-list value, checked the same way.
	func storedForm(ofStored value: PropertyListValue) throws(TransferProblem) -> PropertyListValue?
}

/// Why one value cannot be exported or imported.
struct TransferProblem: Error {
	let reason: String
}

extension Defaults.Key: TransferableKey {
	func exportedJSON(ofStored object: Any) -> JSONValue? {
		if let value = valueOfStored(object), let encodable = value as? any Encodable, let json = try? Self.json(of: encodable) {
			return json
		}

		return PropertyListValue(object).flatMap(StoredValueJSON.json)
	}

	func storedForm(ofJSON json: JSONValue) throws(TransferProblem) -> PropertyListValue? {
		var typedFailure: String?
		if let decodable = Value.self as? any Decodable.Type {
			do {
				let decoder = JSONDecoder()
				JSONDates.configure(decoder)
				if let value = try decoder.decode(decodable, from: json.data) as? Value {
					return try storedForm(of: value)
				}
			} catch {
				typedFailure = Self.summary(of: error)
			}
		}

		// Exported without the key's type (its stored form, a Codable value as a JSON string), or a type that is not Decodable.
		guard let stored = StoredValueJSON.propertyList(json) else {
			throw TransferProblem(reason: typedFailure ?? "null or a malformed value is not a \(Value.self)")
		}

		do {
			return try storedForm(ofStored: stored)
		} catch {
			throw TransferProblem(reason: typedFailure ?? error.reason)
		}
	}

	func storedForm(ofStored value: PropertyListValue) throws(TransferProblem) -> PropertyListValue? {
		guard let decoded = valueOfStored(value.object) else {
			throw TransferProblem(reason: "\(Self.describe(value)) does not decode as \(Value.self)")
		}

		return try storedForm(of: decoded)
	}

	/// The value a stored object holds, in the key's form or another its type supports.
	private func valueOfStored(_ object: Any) -> Value? {
		(try? codec.decode(object)) ?? StoredFormFallback.decode(object, as: Value.self)?.value
	}

	/// The form a write of `value` stores now: an import always stores the current form.
	private func storedForm(of value: Value) throws(TransferProblem) -> PropertyListValue? {
		let encoded: EncodedValue
		do {
			encoded = try codec.encode(value)
		} catch {
			throw TransferProblem(reason: "\(error)")
		}

		switch encoded {
		case .object(let object):
			guard let stored = PropertyListValue(object) else {
				throw TransferProblem(reason: "\(Value.self) did not encode as a property list")
			}

			return stored
		case .absent:
			return nil
		}
	}

	private static func json<Encoded: Encodable>(of value: Encoded) throws -> JSONValue {
		let encoder = JSONEncoder()
		JSONDates.configure(encoder)
		return try JSONDecoder().decode(JSONValue.self, from: encoder.encode(value))
	}

	/// A decoding error in one line, naming where in the value it failed.
	private static func summary(of error: any Error) -> String {
		guard let error = error as? DecodingError else {
			return "\(error)"
		}

		let (context, problem): (DecodingError.Context, String) = switch error {
		case .typeMismatch(let type, let context): (context, "expected \(type)")
		case .valueNotFound(let type, let context): (context, "missing \(type)")
		case .keyNotFound(let key, let context): (context, "missing '\(key.stringValue)'")
		case .dataCorrupted(let context): (context, context.debugDescription)
		@unknown default: (DecodingError.Context(codingPath: [], debugDescription: ""), "\(error)")
		}
		let path = context.codingPath.map(\.stringValue).joined(separator: ".")
		return "not a \(Value.self): \(problem)\(path.isEmpty ? "" : " at \(path)")"
	}

	private static func describe(_ value: PropertyListValue) -> String {
		let text = String(describing: value.object)
		return text.count > 60 ? String(text.prefix(57)) + "…" : text
	}
}
