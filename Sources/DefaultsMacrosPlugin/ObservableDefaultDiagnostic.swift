import SwiftDiagnostics

/// The misuses of `@ObservableDefault`, each saying what to write instead.
enum ObservableDefaultDiagnostic: String, DiagnosticMessage {
	case missingKey
	case notAVariable
	case notAVar
	case severalBindings
	case missingType
	case hasInitializer
	case hasAccessors
	case missingObservationIgnored

	var message: String {
		switch self {
		case .missingKey:
			"@ObservableDefault needs the key to store the property in: write '@ObservableDefault(.yourKey)'"
		case .notAVariable:
			"@ObservableDefault can only be attached to a stored property: write '@ObservableDefault(.yourKey) @ObservationIgnored var name: Type'"
		case .notAVar:
			"@ObservableDefault cannot be applied to a 'let': declare it 'var' so it can be written"
		case .severalBindings:
			"@ObservableDefault applies to one property: declare each property in its own 'var'"
		case .missingType:
			"@ObservableDefault needs the property's type: write 'var name: Type' (the key's value type)"
		case .hasInitializer:
			"remove the initial value: an @ObservableDefault property starts at its key's value, and its default comes from the key"
		case .hasAccessors:
			"remove the accessor block: @ObservableDefault provides 'get' and 'set' itself"
		case .missingObservationIgnored:
			"add '@ObservationIgnored' after '@ObservableDefault(…)' so @Observable leaves this property to the key"
		}
	}

	var diagnosticID: MessageID {
		MessageID(domain: "DefaultsMacros", id: rawValue)
	}

	var severity: DiagnosticSeverity { .error }
}
