import Defaults

extension PropertyListValue {
	/// The type's name as `defaults read-type` prints it, matching macOS: the property-list name, but "float" for a real number.
	var readTypeName: String {
		switch self {
		case .float, .double:
			"float"
		default:
			typeName
		}
	}
}
