import Defaults
import Foundation

/**
A domain's values as a program that reads it sees them, each with the file it
comes from, for `read --show-origin`: forced values, then the user's file,
then system-wide defaults, then the global domain — the library's precedence
(see the "Settings an administrator manages" article). Launch arguments and
registered defaults belong to a running program, so the tool cannot see them.
*/
struct ValueOrigins {
	/// One value and where it comes from.
	struct Entry {
		let value: PropertyListValue
		let origin: Origin
	}

	/// A layer and its file.
	enum Origin {
		case forced(URL)
		case stored(URL)
		case systemWide(URL)
		case globalDomain(URL)
		/// A file named with `--path`, read on its own.
		case file(URL)

		/// The layer's name as the tool prints it.
		var name: String {
			switch self {
			case .forced: "forced"
			case .stored: "stored"
			case .systemWide: "system-wide"
			case .globalDomain: "global-domain"
			case .file: "file"
			}
		}

		var file: URL {
			switch self {
			case .forced(let file), .stored(let file), .systemWide(let file), .globalDomain(let file), .file(let file):
				file
			}
		}
	}

	/// The winning value of each key.
	let entries: [String: Entry]
	/// Administrator files that exist but were left out, and why (the library leaves them out too).
	let ignored: [URL: String]

	/// Every layer of `operands`' domain; a `-g` or `--path` target is its one file.
	static func read(_ operands: Operands) throws -> ValueOrigins {
		let own = try operands.contents() ?? [:]
		switch operands.target {
		case .path:
			return ValueOrigins(entries: own.mapValues { Entry(value: $0, origin: .file(operands.file.url)) }, ignored: [:])
		case .global:
			return ValueOrigins(entries: own.mapValues { Entry(value: $0, origin: .globalDomain(operands.file.url)) }, ignored: [:])
		case .domain(let domain):
			let administrator = AdministratorFiles.read(domain: domain)
			let global = try GlobalDomain.file()
			var entries: [String: Entry] = [:]
			// Least important first: each layer replaces what it holds.
			// An unreadable global domain is the global domain's problem: the domain's own values still show.
			for (name, value) in ((try? global.read()) ?? nil) ?? [:] {
				entries[name] = Entry(value: value, origin: .globalDomain(global.url))
			}

			for (name, setting) in administrator.systemWide {
				entries[name] = Entry(value: setting.value, origin: .systemWide(setting.file))
			}

			for (name, value) in own {
				entries[name] = Entry(value: value, origin: .stored(operands.file.url))
			}

			for (name, setting) in administrator.forced {
				entries[name] = Entry(value: setting.value, origin: .forced(setting.file))
			}

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
