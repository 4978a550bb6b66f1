import Foundation

extension MigrationRun {
	/**
	The version `stored` records, `nil` when it records none. A real with an
	integral value (written by hand, or by a tool that stores every number as
	one) is read as that integer, with a diagnostic; the next migration records
	it as an integer. Anything else (a string, a fraction, a negative number) is
	refused: guessing could run migrations again on migrated values.
	*/
	func recordedVersion(in stored: [String: PropertyListValue], reportingRealNumber: Bool) throws(Defaults.MigrationError) -> Int? {
		guard let value = stored[KeyName.migrationVersion] else {
			return nil
		}

		let real: Double?
		switch value {
		case .integer(let version) where version >= 0:
			return version
		case .double(let number):
			real = number
		case .float(let number):
			real = Double(number)
		default:
			real = nil
		}

		if let real, real >= 0, let version = Int(exactly: real) {
			guard reportingRealNumber else {
				return version
			}

			DiagnosticReporter.report(
				.otherStoredForm,
				key: KeyName.migrationVersion,
				"suite '\(suite.displayName)' records its migration version as the real number \(real), not an integer: it was read as version \(version), and the next migration records it as an integer"
			)
			return version
		}

		let found = switch value {
		case .string(let text): "the string \"\(text)\""
		case .bool(let flag): "the boolean \(flag)"
		case .integer, .unsignedInteger, .double, .float: "the number \(value.object)"
		case .date: "the date \(value.messageText)"
		case .data: "a data value"
		case .array: "an array"
		case .dictionary: "a dictionary"
		}
		DiagnosticReporter.report(
			.migrationFailed,
			key: KeyName.migrationVersion,
			"suite '\(suite.displayName)' records its migration version as \(found), which is not a whole number of zero or more: no migration ran and the suite was left as it is; record the version the settings are at as an integer"
		)
		throw .invalidRecordedVersion(found)
	}
}
