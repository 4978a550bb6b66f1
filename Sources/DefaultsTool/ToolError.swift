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
	/// A key name the library refuses, for a file (see `StoredKeyName`) or a fleet's remote.
	case invalidKeyName(String, reason: String)
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
	/// A domain's file is larger than any preferences file may be (`limit`, 64 MiB): neither the library nor the tool reads it; `repair` sets it aside.
	case domainFileTooLarge(path: String, size: Int64, limit: Int64, repair: String)
	case unreadableDomains([String])
	/// The version the library's migrations reached (`@Defaults.migrationVersion`) is not an integer in `holder` (the input, or the domain); `fix` says how to repair a domain's.
	case nonIntegerMigrationVersion(holder: String, found: String, fix: String?)
	case persistence(Defaults.PersistenceError)
	// `fleet`: the remote, and what the library would refuse to sync.
	case missingFleetRemote(usage: String)
	case conflictingFleetRemotes(usage: String)
	case postgresOnlyOption(usage: String)
	case missingNamespace(usage: String)
	case builtWithoutPostgres
	case invalidConnection(String)
	case invalidFleetName(String, reason: String)
	case fleetRemoteFailed(remote: String, reason: String)
	case noSuchFleetKey(String, remote: String)
	case valueOverBudget(key: String, bytes: Int, budget: Int)
	case overRemoteLimits(key: String, reason: String)
	case implausibleStamp(Defaults.SyncTimestamp, reason: String)
	case newerOnRemote(key: String, stamp: Defaults.SyncTimestamp, newer: Defaults.SyncTimestamp)
	case notPublished(key: String, stamp: Defaults.SyncTimestamp, remote: String)

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
			.invalidValue, .missingValue, .unparsableValue, .notADomainLiteral, .missingFleetRemote, .conflictingFleetRemotes, .postgresOnlyOption,
			.missingNamespace, .invalidConnection, .invalidFleetName, .invalidKeyName:
			true
		case .noSuchDomain, .noSuchFile, .noSuchFolder, .noSuchKey, .forcedKey, .notAContainer, .unreadableInput, .cannotWrite, .unreadableDomain, .domainFileTooLarge,
			.unreadableDomains, .nonIntegerMigrationVersion, .persistence, .builtWithoutPostgres, .fleetRemoteFailed, .noSuchFleetKey, .valueOverBudget,
			.overRemoteLimits, .implausibleStamp, .newerOnRemote, .notPublished:
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
		case .domainFileTooLarge(let path, let size, let limit, let repair):
			"\(path) is \(size) bytes, more than the \(limit / 1024 / 1024) MiB (\(limit) bytes) a preferences file may have: the library will not read it, "
				+ "so no program sees its values, and neither does this command; it was left as it is ('\(repair)' moves it aside, keeping it, so the domain can start over)"
		case .unreadableDomains(let paths):
			"skipped unreadable files: \(paths.joined(separator: ", "))"
		case .nonIntegerMigrationVersion(let holder, let found, let fix):
			"\(holder) records the migration version, \(KeyName.migrationVersion), as \(found), not an integer; nothing was replaced"
				+ (fix.map { " (\($0))" } ?? "")
		case .persistence(let error):
			error.description
		case .missingFleetRemote(let usage):
			"give the fleet's remote: --folder <path> for a shared folder, or --postgres --namespace <name>; usage: \(usage)"
		case .conflictingFleetRemotes(let usage):
			"give --folder or --postgres, not both; usage: \(usage)"
		case .postgresOnlyOption(let usage):
			"--namespace, --table and --schema go with --postgres; a shared folder holds one fleet's settings; usage: \(usage)"
		case .missingNamespace(let usage):
			"--postgres needs --namespace <name>, the namespace the fleet's processes use; usage: \(usage)"
		case .builtWithoutPostgres:
			"this defaults tool was built without PostgreSQL support (build it with --traits Postgres); --folder works without it"
		case .invalidConnection(let reason):
			"cannot connect to PostgreSQL: \(reason)"
		case .invalidFleetName(let name, let reason):
			"'\(name)' cannot be used: \(reason)"
		case .invalidKeyName(let name, let reason):
			"key name '\(name)' is refused by the library: \(reason); nothing was written"
		case .fleetRemoteFailed(let remote, let reason):
			"\(remote) failed: \(reason)"
		case .noSuchFleetKey(let key, let remote):
			"key '\(key)' does not exist in \(remote)"
		case .valueOverBudget(let key, let bytes, let budget):
			"the value of '\(key)' takes \(bytes) bytes, over the \(budget) bytes a process accepts for one value (--value-budget); nothing was written"
		case .overRemoteLimits(let key, let reason):
			"'\(key)' does not fit: \(reason); nothing was written"
		case .implausibleStamp(let stamp, let reason):
			"the change would be stamped \(stamp), which the fleet refuses: \(reason); check this machine's clock; nothing was written"
		case .newerOnRemote(let key, let stamp, let newer):
			"the remote holds a newer change of '\(key)', stamped \(newer) (this one was \(stamp)): another device wrote it meanwhile, or its clock is ahead; 'defaults fleet read' shows it"
		case .notPublished(let key, let stamp, let remote):
			"\(remote) did not keep the change of '\(key)' stamped \(stamp); read it back with 'defaults fleet read'"
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
