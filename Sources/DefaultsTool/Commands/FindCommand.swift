import ArgumentParser
import Defaults

struct FindCommand: ParsableCommand {
	static let configuration = CommandConfiguration(
		commandName: "find",
		abstract: "Search every domain for a word in its name, its keys or its string values (ignoring case)."
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
				let noun = entries.count == 1 ? "key" : "keys"
				Output.print("Found \(entries.count) \(noun) in domain '\(domain)': \(TextFormat.render(.dictionary(entries), style: .nested))")
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
