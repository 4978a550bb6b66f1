import ArgumentParser

/// What the fleet verbs that read (`read`, `watch`) take: the remote, the output format, and one key or all.
struct FleetReadingOptions: ParsableArguments {
	@OptionGroup var remote: FleetRemoteOptions
	@OptionGroup var output: OutputOptions

	@Argument(help: "The key; all keys when left out.")
	var key: String?

	/// The remote, opened once the key (when given) is one the library accepts.
	func open(usage: String) throws -> FleetRemote {
		try remote.open(usage: usage, key: key)
	}
}
