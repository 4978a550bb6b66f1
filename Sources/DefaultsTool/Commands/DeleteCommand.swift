import ArgumentParser
import Defaults
import Foundation

struct DeleteCommand: ParsableCommand {
	static let usage = "defaults delete <domain> [<key>]"

	static let configuration = CommandConfiguration(
		commandName: "delete",
		abstract: "Remove a key, or a whole domain with its file.",
		usage: "\(usage)\ndefaults delete -g [<key>]\ndefaults delete --path <file> [<key>]",
		discussion: """
			Deleting a domain also removes the files the library keeps beside it (its lock \
			file and its sync ledger, <domain>.defaults-sync.plist). A domain whose file is \
			not a readable property list is not deleted but moved aside, to \
			<domain>.unreadable-<time>.plist beside it, so the domain starts over and the \
			bytes are kept.
			"""
	)

	@OptionGroup var target: TargetOptions

	@Argument(help: ArgumentHelp("The domain, then optionally a key.", valueName: "domain> <key"))
	var arguments: [String] = []

	func run() throws {
		var operands = try target.resolve(arguments, usage: Self.usage)
		let key = operands.nextIfPresent()
		try operands.finish()
		let name = operands.name
		guard let key else {
			try Self.deleteWhole(operands)
			return
		}

		try operands.updateExisting { contents in
			guard contents?.removeValue(forKey: key) != nil else {
				throw ToolError.noSuchKey(key, domain: name)
			}
		}
	}

	private static func deleteWhole(_ operands: Operands) throws {
		// Checked first, so deleting a missing domain creates no folder or lock file.
		guard FileManager.default.fileExists(atPath: operands.file.url.path) else {
			throw operands.missing
		}

		switch try persisting({ try operands.file.delete() }) {
		case .missing:
			throw operands.missing
		case .movedAside(let aside):
			Output.note("\(operands.file.url.path) was not a readable property list: moved aside to \(aside.path)")
		case .deleted:
			break
		}

		if case .domain(let domain) = operands.target {
			for companion in DomainFolder.companionDomains(of: domain) {
				_ = try persisting { try PreferencesFile(domain: companion).delete() }
			}
		}
	}
}
