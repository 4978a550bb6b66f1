#if Postgres
import Defaults

extension Defaults.PostgresRemoteStoreError {
	/// The error as a relay's files carry it from the process that connects to the others, which report it as their own.
	var propertyListValue: PropertyListValue {
		let fields: [String: PropertyListValue] = switch self {
		case .invalidName(let name, let reason):
			["case": .string("invalidName"), "name": .string(name), "reason": .string(reason)]
		case .unreachable(let duration, let lastConnectionError):
			["case": .string("unreachable"), "milliseconds": .integer(Int(duration / .milliseconds(1)))].merging(lastConnectionError.map { ["lastConnectionError": .string($0)] } ?? [:]) { $1 }
		case .server(let sqlState, let message):
			["case": .string("server"), "sqlState": .string(sqlState), "message": .string(message)]
		case .connectionLost(let reason):
			["case": .string("connectionLost"), "reason": .string(reason)]
		case .shutDown:
			["case": .string("shutDown")]
		case .unusableTable(let reason):
			["case": .string("unusableTable"), "reason": .string(reason)]
		case .sharedConnection(let path, let reason):
			["case": .string("sharedConnection"), "path": .string(path), "reason": .string(reason)]
		}

		return .dictionary(fields)
	}

	/// The error a relay's files carry, or `nil` for one this version does not know.
	init?(propertyListValue stored: PropertyListValue) {
		guard case .dictionary(let fields) = stored, case .string(let name)? = fields["case"] else {
			return nil
		}

		func text(_ field: String) -> String? {
			if case .string(let value)? = fields[field] {
				return value
			}

			return nil
		}

		switch name {
		case "invalidName":
			self = .invalidName(text("name") ?? "", reason: text("reason") ?? "")
		case "unreachable":
			guard case .integer(let milliseconds)? = fields["milliseconds"] else {
				return nil
			}

			self = .unreachable(after: .milliseconds(milliseconds), lastConnectionError: text("lastConnectionError"))
		case "server":
			self = .server(sqlState: text("sqlState") ?? "?", message: text("message") ?? "")
		case "connectionLost":
			self = .connectionLost(text("reason") ?? "")
		case "shutDown":
			self = .shutDown
		case "unusableTable":
			self = .unusableTable(text("reason") ?? "")
		case "sharedConnection":
			self = .sharedConnection(path: text("path") ?? "", reason: text("reason") ?? "")
		default:
			return nil
		}
	}
}
#endif
