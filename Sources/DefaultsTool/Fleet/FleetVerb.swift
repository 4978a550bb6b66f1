import ArgumentParser

/**
A `defaults fleet` verb. Its name and operands make its usage line, around
the remote's options as ``FleetRemoteOptions/usage`` spells them once; the
line is the verb's help and the hint of its usage errors.
*/
protocol FleetVerb: ParsableCommand {
	/// The verb: `read`, `write`, `delete`, `watch`.
	static var verb: String { get }
	/// What the usage line shows after the remote's options: `<key>`, `[<key>] [--json]`…
	static var operands: String { get }
	static var abstract: String { get }
	static var discussion: String { get }
}

extension FleetVerb {
	/// `defaults fleet <verb> (--folder <path> | --postgres --namespace <name>) <operands>`.
	static var usage: String {
		"defaults fleet \(verb) \(FleetRemoteOptions.usage) \(operands)"
	}

	static var configuration: CommandConfiguration {
		CommandConfiguration(commandName: verb, abstract: abstract, usage: usage, discussion: discussion)
	}
}
