import ArgumentParser
import Defaults

struct FindCommand: ParsableCommand {
	static let configuration = CommandConfiguration(
		commandName: "find",
		abstract: "Search every domain for a word in its name, its keys or its string values (ignoring case).",
		usage: "defaults find <word>",
		discussion: """
			Each domain with a match prints as macOS prints it, "Found <n> keys in domain \
			'<domain>': " and the matching entries (the global domain is 'Apple Global Domain', \
			as there); --json prints them as one object keyed by domain.
			"""
	)

	@OptionGroup var output: OutputOptions

	@Argument(help: "The text to look for.")
	var word: String

	func run() throws {
		let domains = try AllDomains.load()
		var found: [String: [String: PropertyListValue]] = [:]
		for (domain, contents) in domains.contents {
			let entries = matches(domain) ? contents : contents.filter { matches($0.key) || contains($0.value) }
			if !entries.isEmpty {
				found[domain] = entries
			}
		}

		if output.json {
			Output.print(JSONFormat.render(.dictionary(found.mapValues(PropertyListValue.dictionary)), pretty: true))
		} else if found.isEmpty {
			Output.print("No domain, key, nor value containing '\(word)'")
		} else {
			for (domain, entries) in found.sorted(by: { $0.key < $1.key }) {
				// "keys" even for one, as macOS prints it: scripts match this line.
				let name = domain == GlobalDomain.name ? GlobalDomain.displayName : domain
				Output.print("Found \(entries.count) keys in domain '\(name)': \(TextFormat.render(.dictionary(entries), style: .nested))")
			}
		}

		try domains.failIfAnyUnreadable()
	}

	private func matches(_ text: String) -> Bool {
		text.localizedCaseInsensitiveContains(word)
	}

	private func contains(_ value: PropertyListValue) -> Bool {
		switch value {
		case .string(let string):
			matches(string)
		case .array(let elements):
			elements.contains(where: contains)
		case .dictionary(let entries):
			entries.contains { matches($0.key) || contains($0.value) }
		default:
			false
		}
	}
}
