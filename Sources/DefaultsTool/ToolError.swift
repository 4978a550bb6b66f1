import Defaults
import Foundation

/// Why a command failed, phrased as one line that says what to do instead.
enum ToolError: Error, CustomStringConvertible {
	/// A first word that is no command; the usage summary is printed after it.
	case unknownCommand(String, suggestion: String?)
	case notSupportedOnLinux(MacOSOnlyOption)
	case missingOperand(String, usage: String)
	case unexpectedOperand(String, usage: String)
	/// A word in a domain or key position that starts with `-` and is not an option of the command.
	case optionLikeOperand(String, corrected: String)
	case conflictingTargets(usage: String)
	case unknownTypeFlag(String)
	case invalidDomainName(String)
	case noSuchDomain(String)
	case noSuchFile(String)
	case noSuchFolder(path: String)
	case noSuchKey(String, domain: String)
	case forcedKey(String, domain: String, file: String)
	case invalidValue(String, type: String, expected: String)
	case missingValue(type: String)
	case notAContainer(key: String, kind: String, expected: String)
	case unreadableInput(source: String, reason: String)
	case cannotWrite(path: String, reason: String)
	case unparsableValue(String)
	case notADomainLiteral(String)
	/// A domain's file does not parse; `repair` is the command that sets it aside.
	case unreadableDomain(path: String, repair: String)
	case unreadableDomains([String])
	/// The version the library's migrations reached (`@Defaults.migrationVersion`) is not an integer in `holder` (the input, or the domain); `fix` says how to repair a domain's.
	case nonIntegerMigrationVersion(holder: String, found: String, fix: String?)
	case persistence(Defaults.PersistenceError)

	init(_ error: Defaults.PersistenceError) {
		if case .invalidSuiteName(let name) = error {
			self = .invalidDomainName(name)
		} else {
			self = .persistence(error)
		}
	}

	/// A mistake in the command line (exit status 64, `EX_USAGE`), rather than a failure of the command (status 1).
	var isUsageError: Bool {
		switch self {
		case .unknownCommand, .notSupportedOnLinux, .missingOperand, .unexpectedOperand, .optionLikeOperand, .conflictingTargets, .unknownTypeFlag, .invalidDomainName,
			.invalidValue, .missingValue, .unparsableValue, .notADomainLiteral:
			true
		case .noSuchDomain, .noSuchFile, .noSuchFolder, .noSuchKey, .forcedKey, .notAContainer, .unreadableInput, .cannotWrite, .unreadableDomain,
			.unreadableDomains, .nonIntegerMigrationVersion, .persistence:
			false
		}
	}

	var description: String {
		switch self {
		case .unknownCommand(let word, let suggestion):
			"unknown command '\(word)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
		case .notSupportedOnLinux(let option):
			"not supported on Linux: \(option.reason)"
		case .missingOperand(let name, let usage):
			"missing \(name); usage: \(usage)"
		case .unexpectedOperand(let operand, let usage):
			"unexpected argument '\(operand)'; usage: \(usage)"
		case .optionLikeOperand(let word, let corrected):
			"unknown option '\(word)'; a domain or key that starts with '-' goes after '--': \(corrected)"
		case .conflictingTargets(let usage):
			"give a domain, -g or --path, not several; usage: \(usage)"
		case .unknownTypeFlag(let word):
			"unknown type '\(word)'; use one of \(ValueParser.flagSummary) (text that starts with '-' is written with -string)"
		case .invalidDomainName(let name):
			if let problem = PreferencesLocation.lengthProblem(of: name) {
				"domain name '\(name)' \(problem)"
			} else {
				"domain name '\(name)' would leave the preferences folder: use a name without '/' that is not empty, '.' or '..', or a file's path that starts with '/' or '~/'"
			}
		case .noSuchDomain(let name):
			"domain '\(name)' does not exist (see 'defaults domains')"
		case .noSuchFile(let path):
			"file '\(path)' does not exist"
		case .noSuchFolder(let path):
			"cannot write \(path): no such folder (create it first)"
		case .noSuchKey(let key, let domain):
			"key '\(key)' does not exist in domain '\(domain)'"
		case .forcedKey(let key, let domain, let file):
			"key '\(key)' of domain '\(domain)' is forced by an administrator in \(file); nothing was written (only a change to that file changes it)"
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
		case .notADomainLiteral(let text):
			"'\(text)' is not a property-list dictionary such as '{ key = value; }'; to write one key, give the key and then its value"
		case .unreadableDomain(let path, let repair):
			"\(path) is not a readable property list; it was left as it is ('\(repair)' moves it aside, keeping it, so the domain can start over)"
		case .unreadableDomains(let paths):
			"skipped unreadable files: \(paths.joined(separator: ", "))"
		case .nonIntegerMigrationVersion(let holder, let found, let fix):
			"\(holder) records the migration version, \(KeyName.migrationVersion), as \(found), not an integer; nothing was replaced"
				+ (fix.map { " (\($0))" } ?? "")
		case .persistence(let error):
			error.description
		}
	}
}

extension ToolError {
	/// Refuses `words[index]`, suggesting the same command with `--` before it.
	static func optionLike(at index: Int, of words: [String], command: String) -> ToolError {
		let corrected = words[..<index] + ["--"] + words[index...]
		return .optionLikeOperand(words[index], corrected: (["defaults", command] + corrected.map(ShellWord.quoted)).joined(separator: " "))
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
