import Foundation

/**
Refuses dates that do not exist before a parser makes them exist.

Foundation's date parsers roll fields over instead of refusing them
(`2024-02-30` becomes March 1, `25:00` the next day), so a mistyped date
would be stored as another one. This checks the fields of the date forms
people type (`yyyy-MM-dd`, optionally followed by `T` or a space and
`HH:mm[:ss]`) against the Gregorian calendar first.
*/
package enum CalendarDate {
	/// What makes the date at the start of `text` impossible (`2024-02 has no day 30`), or `nil` when it exists or `text` is not in that form.
	package static func impossibility(in text: String) -> String? {
		guard let match = text.prefixMatch(of: /(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/) else {
			return nil
		}

		let year = Int(match.1)!
		let month = Int(match.2)!
		let day = Int(match.3)!
		guard (1...12).contains(month) else {
			return "there is no month \(month)"
		}

		guard (1...days(inMonth: month, of: year)).contains(day) else {
			return "\(match.1)-\(match.2) has no day \(day)"
		}

		let limits: [(field: Substring?, name: String, last: Int)] = [(match.4, "hour", 23), (match.5, "minute", 59), (match.6, "second", 59)]
		for (field, name, last) in limits {
			if let field, let value = Int(field), value > last {
				return "there is no \(name) \(value)"
			}
		}

		return nil
	}

	private static func days(inMonth month: Int, of year: Int) -> Int {
		switch month {
		case 2:
			year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
		case 4, 6, 9, 11:
			30
		default:
			31
		}
	}
}
