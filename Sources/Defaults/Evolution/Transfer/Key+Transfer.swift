import Foundation

extension Defaults.Key: TransferableKey {
	func exportedJSON(ofStored object: Any) -> JSONValue? {
		if let value = valueOfStored(object), let encodable = value as? any Encodable, let json = try? Self.json(of: encodable) {
			return StoredValueJSON.escapingLookalikes(json)
		}

		return PropertyListValue(object).flatMap(StoredValueJSON.json)
	}

	func storedForm(ofJSON json: JSONValue) throws(TransferProblem) -> PropertyListValue? {
		var typedFailure: String?
		if let decodable = Value.self as? any Decodable.Type {
			let typedJSON = StoredValueJSON.unescapingLookalikes(json)
			do {
				let decoder = JSONDecoder()
				JSONDates.configure(decoder)
				if let value = try decoder.decode(decodable, from: typedJSON.data) as? Value {
					return try storedForm(of: value)
				}
			} catch {
				typedFailure = Self.summary(of: error, in: typedJSON)
			}
		}

		// Exported without the key's type (its stored form, a Codable value as a JSON string), or a type that is not Decodable.
		do {
			return try storedForm(ofStored: StoredValueJSON.propertyList(json))
		} catch {
			throw TransferProblem(reason: typedFailure ?? error.reason)
		}
	}

	func storedForm(ofStored value: PropertyListValue) throws(TransferProblem) -> PropertyListValue? {
		guard let decoded = valueOfStored(value.object) else {
			throw TransferProblem(reason: "\(Self.describe(value)) does not decode as \(TypeName.withArticle(Value.self))")
		}

		let stored = try storedForm(of: decoded)
		// Reading a number from text or a boolean from a number serves launch arguments; a type stored as it is (a number, a
		// string, a date, or a collection of them) has no other form to import, so a value of another kind is refused.
		if let stored, StoredFormFallback.hasNoOtherForms(Value.self), !value.hasSameKind(as: stored) {
			throw TransferProblem(reason: "expected \(TypeName.withArticle(Value.self)), found \(value.kindDescription) (\(Self.describe(value)))")
		}

		return stored
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

	/// A decoding error in one line: what was expected, what `json` holds there instead, and where.
	private static func summary(of error: any Error, in json: JSONValue) -> String {
		guard let error = error as? DecodingError else {
			return "\(error)"
		}

		let context: DecodingError.Context
		let problem: String
		switch error {
		case .typeMismatch(let type, let errorContext):
			context = errorContext
			problem = "expected \(Self.expected(type)), found \(found(at: context.codingPath, in: json))"
		case .valueNotFound(let type, let errorContext):
			context = errorContext
			problem = "expected \(Self.expected(type)), found null"
		case .keyNotFound(let key, let errorContext):
			context = errorContext
			problem = "missing '\(key.stringValue)'"
		case .dataCorrupted(let errorContext) where errorContext.debugDescription.contains("not valid JSON"):
			// What Foundation says of valid JSON that does not fit (1.5 for an Int): say what it found instead.
			context = errorContext
			problem = context.codingPath.isEmpty
				? "expected \(TypeName.withArticle(Value.self)), found \(found(at: [], in: json))"
				: "\(found(at: context.codingPath, in: json)) does not fit"
		case .dataCorrupted(let errorContext):
			context = errorContext
			problem = context.debugDescription
		@unknown default:
			return "\(error)"
		}

		let path = JSONPath.text(context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue })
		return path.isEmpty ? problem : "not \(TypeName.withArticle(Value.self)): \(problem) at \(path)"
	}

	private static func found(at path: [any CodingKey], in json: JSONValue) -> String {
		json.value(at: path)?.kindDescription ?? "another kind"
	}

	/// The JSON a decoder expected, named as JSON names it.
	private static func expected(_ type: Any.Type) -> String {
		switch type {
		case is [String: Any].Type: "an object"
		case is [Any].Type: "an array"
		default: TypeName.withArticle(type)
		}
	}

	private static func describe(_ value: PropertyListValue) -> String {
		let text = value.messageText
		return text.count > 60 ? String(text.prefix(57)) + "…" : text
	}
}
