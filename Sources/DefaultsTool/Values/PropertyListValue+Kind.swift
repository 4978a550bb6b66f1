import Defaults

extension PropertyListValue {
	/// The type's name as `defaults read-type` prints it, matching macOS.
	var typeName: String {
		switch self {
		case .bool:
			"boolean"
		case .integer, .unsignedInteger:
			"integer"
		case .float, .double:
			"float"
		case .string:
			"string"
		case .data:
			"data"
		case .date:
			"date"
		case .array:
			"array"
		case .dictionary:
			"dictionary"
		}
	}
}
