import Foundation

/// Why a value could not be converted to or from its stored form.
struct SerializationError: Error, CustomStringConvertible {
	let description: String

	init(_ description: String) {
		self.description = description
	}

	static func mismatch(_ object: Any, expected: Any.Type) -> Self {
		Self("stored \(StoredValueDescription.of(object)) is not a \(expected)")
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
		let text = String(describing: object)
		let shown = text.count > 80 ? String(text.prefix(77)) + "..." : text
		return "\(type(of: object)) \(shown)"
	}
}
