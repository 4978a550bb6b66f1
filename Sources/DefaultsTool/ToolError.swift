import Defaults
import Foundation

/// Why a command failed, phrased as one line that says what to do instead.
enum ToolError: Error, CustomStringConvertible {
	case missingOperand(String, usage: String)
	case unexpectedOperand(String, usage: String)
	case invalidDomainName(String)
	case noSuchDomain(String)
	case noSuchFile(String)
	case noSuchKey(String, domain: String)
	case invalidValue(String, type: String, expected: String)
	case missingValue(type: String)
	case notAContainer(key: String, kind: String, expected: String)
	case unreadableInput(source: String, reason: String)
	case cannotWrite(path: String, reason: String)
	case unparsableValue(String)
	case unreadableDomains([String])
	case persistence(Defaults.PersistenceError)

	init(_ error: Defaults.PersistenceError) {
		if case .invalidSuiteName(let name) = error {
			self = .invalidDomainName(name)
		} else {
			self = .persistence(error)
		}
	}

	var description: String {
		switch self {
		case .missingOperand(let name, let usage):
			"missing \(name); usage: \(usage)"
		case .unexpectedOperand(let operand, let usage):
			"unexpected argument '\(operand)'; usage: \(usage)"
		case .invalidDomainName(let name):
			"domain name '\(name)' would leave the preferences folder: use a name without '/' that is not empty, '.' or '..' (or --path for a file elsewhere)"
		case .noSuchDomain(let name):
			"domain '\(name)' does not exist (see 'defaults domains')"
		case .noSuchFile(let path):
			"file '\(path)' does not exist"
		case .noSuchKey(let key, let domain):
			"key '\(key)' does not exist in domain '\(domain)'"
		case .invalidValue(let text, let type, let expected):
			"'\(text)' is not a valid -\(type) value: expected \(expected)"
		case .missingValue(let type):
			"-\(type) needs a value"
		case .notAContainer(let key, let kind, let expected):
			"key '\(key)' holds \(kind), not \(expected); write it with -\(expected == "an array" ? "array" : "dict") to replace it"
		case .unreadableInput(let source, let reason):
			"cannot read \(source): \(reason)"
		case .cannotWrite(let path, let reason):
			"cannot write \(path): \(reason)"
		case .unparsableValue(let text):
			"'\(text)' is not a valid property list; store it as text with -string, or fix its syntax"
		case .unreadableDomains(let paths):
			"skipped unreadable files: \(paths.joined(separator: ", "))"
		case .persistence(let error):
			error.description
		}
	}
}

/// Runs a library call, turning its persistence errors into the tool's.
func persisting<Value>(_ body: () throws -> Value) throws -> Value {
	do {
		return try body()
	} catch let error as Defaults.PersistenceError {
		throw ToolError(error)
	}
}
