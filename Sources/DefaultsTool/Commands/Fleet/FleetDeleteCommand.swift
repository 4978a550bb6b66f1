import ArgumentParser
import Defaults

struct FleetDeleteCommand: FleetVerb {
	static let verb = "delete"
	static let operands = "<key>"
	static let abstract = "Remove a setting from the whole fleet: every process goes back to its default."
	static let discussion = """
		Publishes a deletion (a tombstone), stamped as a write is, which every process \
		applies as a reset of the key; 'fleet read' shows the key as (deleted). A key the \
		remote does not hold is refused.
		"""

	@OptionGroup var remote: FleetRemoteOptions

	@Argument(help: "The key.")
	var key: String

	func run() throws {
		let remote = try remote.open(usage: Self.usage, key: key, forWriting: true)
		let key = key
		let publication = FleetPublication(key: key, change: { current in
			guard current != nil else {
				throw ToolError.noSuchFleetKey(key, remote: remote.name)
			}

			return nil
		}, valueBudget: .max)
		_ = try publication.publish(to: remote)
	}
}
