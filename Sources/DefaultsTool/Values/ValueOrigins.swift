import Defaults
import Foundation

/**
A domain's values as a program that reads it sees them, each with the file it
comes from, for `read --show-origin`: each file layer read, and the library
picking each key's value by its precedence (`ValueLayer`; see the "Settings
an administrator manages" article). Launch arguments and registered defaults
belong to a running program, so the tool cannot see them.
*/
struct ValueOrigins {
	/// One value, the layer it comes from and its file.
	struct Entry {
		let value: PropertyListValue
		/// `nil`: a file named with `--path`, read on its own.
		let layer: ValueLayer?
		let file: URL

		/// Where the value comes from, as the tool prints it: the layer's name, or `file` for a file named with `--path`.
		var originName: String {
			layer?.name ?? "file"
		}
	}

	/// The winning value of each key.
	let entries: [String: Entry]
	/// Administrator files that exist but were left out, and why (the library leaves them out too).
	let ignored: [URL: String]

	/// The names of the layers the tool can show, highest first: those kept in files.
	static let layerNames = ValueLayer.allCases.filter { $0.location != .process }.map(\.name)

	/// Every layer of `operands`' domain; a `-g` or `--path` target is its one file.
	static func read(_ operands: Operands) throws -> ValueOrigins {
		let own = try operands.contents() ?? [:]
		switch operands.target {
		case .path:
			return ValueOrigins(entries: own.mapValues { Entry(value: $0, layer: nil, file: operands.file.url) }, ignored: [:])
		case .global:
			return ValueOrigins(entries: own.mapValues { Entry(value: $0, layer: .global, file: operands.file.url) }, ignored: [:])
		case .domain(let domain):
			let administrator = AdministratorFiles.read(domain: domain)
			let global = try GlobalDomain.file()
			var layers = administrator.settings.mapValues { $0.mapValues { (value: $0.value, file: $0.file) } }
			layers[.stored] = own.mapValues { ($0, operands.file.url) }
			// An unreadable global domain is the global domain's problem: the domain's own values still show.
			layers[.global] = (((try? global.read()) ?? nil) ?? [:]).mapValues { ($0, global.url) }
			let entries = ValueLayer.winners(layers).mapValues { Entry(value: $0.value.value, layer: $0.layer, file: $0.value.file) }
			return ValueOrigins(entries: entries, ignored: administrator.ignored)
		}
	}

	/// Says on standard error which administrator files were left out.
	func noteIgnoredFiles() {
		for (file, reason) in ignored.sorted(by: { $0.key.path < $1.key.path }) {
			Output.note("defaults: \(file.path) \(reason); it is ignored, as programs ignore it")
		}
	}
}
