import Foundation

/// Why a value could not be converted to or from its stored form.
struct SerializationError: Error, CustomStringConvertible {
	let description: String

	init(_ description: String) {
		self.description = description
	}

	static func mismatch(_ object: Any, expected: Any.Type) -> Self {
		Self("stored \(StoredValueDescription.of(object)) is not \(TypeName.withArticle(expected))")
	}

	static func notPropertyList(_ value: Any) -> Self {
		Self("\(type(of: value)) is not a property-list type; give it a Defaults.Bridge")
	}

	static func bridgeRejected(_ bridge: Any.Type, reading: Bool) -> Self {
		Self("\(bridge) returned nil while \(reading ? "reading" : "writing")")
	}
}

/// Short descriptions of stored objects for diagnostics, never the whole payload.
enum StoredValueDescription {
	static func of(_ object: Any) -> String {
		// Not `String(describing:)` for property lists: `Date.description` traps on a NaN date, which a file can hold.
		let text = PropertyListValue(object)?.messageText ?? String(describing: object)
		let shown = text.count > 80 ? String(text.prefix(77)) + "..." : text
		return "\(type(of: object)) \(shown)"
	}
}

/// Type names in messages, with the article English gives them: "an Int", "a Double", "a URL".
enum TypeName {
	static func withArticle(_ type: Any.Type) -> String {
		withArticle(String(describing: type))
	}

	/// By the first letter: "an" before a vowel that sounds as one (`Int`, `Array<…>`, `Optional<…>`); names that start with `U` (`URL`, `UUID`, `UInt64`) are read "you".
	static func withArticle(_ name: String) -> String {
		let vowel = name.first.map { "AEIOaeio".contains($0) } ?? false
		return (vowel ? "an " : "a ") + name
	}
}
