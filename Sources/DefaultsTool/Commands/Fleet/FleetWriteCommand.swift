import ArgumentParser
import Defaults

struct FleetWriteCommand: FleetVerb {
	static let verb = "write"
	static let operands = "<key> [-<type>] <value>..."
	static let abstract = "Change a setting for the whole fleet, as a write from one of its processes would."
	static let discussion = """
		The value is given as to 'defaults write' (types: \(ValueParser.flagSummary)); \
		-array-add and -dict-add extend the fleet's current value. The change is stamped \
		after every change the remote holds, published, and read back. Refused with one line, \
		nothing written: a key name the library refuses, a value over the remote's limits or \
		over --value-budget, a remote that holds a newer change of the key once published \
		(another device wrote meanwhile).
		  defaults fleet write --folder ~/Sync/preferences theme dark
		  defaults fleet write --postgres --namespace billing limits -dict requests -int 100
		"""

	@OptionGroup var remote: FleetRemoteOptions

	@Option(name: .customLong("value-budget"), help: ArgumentHelp("The most bytes one value may take, as the fleet's processes count it (Defaults.SizeBudget.perValue); default the platform's limit.", valueName: "bytes"))
	var valueBudget = Defaults.SizeBudget.platformDefault.perValue

	// Captured as they are, so values such as `-5` or `-string -x` are data, not options.
	@Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The key, then the value with its type flag.", valueName: "key> <value"))
	var arguments: [String] = []

	func run() throws {
		var words = arguments[...]
		if words.first == "--" {
			words.removeFirst()
		}

		guard let key = words.popFirst() else {
			throw ToolError.missingOperand("key", usage: Self.usage)
		}

		// Options go before the key; a key that starts with a dash follows `--`.
		if ["-h", "-help", "--help"].contains(key), arguments.first != "--" {
			throw CleanExit.helpRequest(Self.self)
		}

		try FleetPublication.validate(key: key)
		let action = try ValueParser.parse(words, of: Self.self, usage: Self.usage)
		let remote = try remote.open(usage: Self.usage, forWriting: true)
		let publication = FleetPublication(key: key, change: { try WriteCommand.apply(action, to: $0, key: key) }, valueBudget: valueBudget)
		_ = try publication.publish(to: remote)
	}
}
