import Foundation

/**
Second readings of a launch argument that did not decode as its key's type.

A value typed by hand arrives as text. Numbers and booleans (`-count 8`,
`-enabled YES`, `-ratio 0.5`) already read as their types; what needs help is
text whose stored form is JSON or a date: a URL (`-homepage https://…`), a
`Codable` enum or string (`-theme dark`), or a date (`-since 2026-11-22T08:30:00Z`,
or a `<date>` element with fractional seconds, which Linux Foundation leaves as
text). Only values that come from the argument domain are read this way, so a
malformed stored value still yields the default and a diagnostic.
*/
enum LaunchArgumentReading {
	/// The other objects `text` could stand for, in the order they are tried.
	static func interpretations(of text: String) -> [Any] {
		var objects: [Any] = []
		if let date = date(from: text) {
			objects.append(date)
		}

		if let json = try? JSONEncoder().encode(text) {
			objects.append(String(decoding: json, as: UTF8.self))
		}

		return objects
	}

	private static func date(from text: String) -> Date? {
		var text = Substring(text)
		if text.hasPrefix("<date>"), text.hasSuffix("</date>") {
			text = text.dropFirst("<date>".count).dropLast("</date>".count)
		}

		let string = String(text)
		return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string))
			?? (try? Date.ISO8601FormatStyle().parse(string))
	}
}
