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
			files and its sync ledger, <domain>.defaults-sync.plist); if a delete was cut \
			short after the file went, deleting again removes the rest. A domain whose file is \
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
			// A delete cut short (its ledger's lock was busy) removed the file, not what was kept beside it: finish it.
			guard Self.hasLeftovers(operands) else {
				throw operands.missing
			}

			_ = try persisting { try operands.file.delete() }
			try deleteCompanions(operands)
			Output.note("defaults: \(operands.file.url.lastPathComponent) was already gone; removed the files kept beside it")
			return
		}

		switch try persisting({ try operands.file.delete() }) {
		case .missing:
			throw operands.missing
		case .movedAside(let aside):
			Output.note("\(operands.file.url.path) was not a readable property list: moved aside to \(aside.path)")
		case .deleted:
			break
		}

		try deleteCompanions(operands)
	}

	private static func deleteCompanions(_ operands: Operands) throws {
		for companion in try companions(of: operands) {
			_ = try persisting { try companion.delete() }
		}
	}

	/// The files a domain's deletion removes besides its own: its sync ledger.
	private static func companions(of operands: Operands) throws -> [PreferencesFile] {
		guard case .domain(let domain) = operands.target else {
			return []
		}

		return try DomainFolder.companionDomains(of: domain).map { companion in try persisting { try PreferencesFile(domain: companion) } }
	}

	/// Whether a domain without its file still has files of the library's beside it (lock files, a sync ledger).
	private static func hasLeftovers(_ operands: Operands) -> Bool {
		let companions = (try? companions(of: operands)) ?? []
		return operands.file.hasLockFiles
			|| companions.contains { FileManager.default.fileExists(atPath: $0.url.path) || $0.hasLockFiles }
	}
}
