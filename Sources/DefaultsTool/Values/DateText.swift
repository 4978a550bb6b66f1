import Defaults
import Foundation

/// The date forms the tool reads and prints.
enum DateText {
	/// Parses ISO 8601 (with or without fractional seconds), `yyyy-MM-dd HH:mm:ss Z` as macOS prints dates, a day (`yyyy-MM-dd`, UTC midnight), or `now`; a date that does not exist (February 30) is refused rather than rolled over.
	static func parse(_ text: String) -> Date? {
		if text.lowercased() == "now" {
			return Date()
		}

		guard CalendarDate.impossibility(in: text) == nil else {
			return nil
		}

		if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
			return date
		}

		if let date = try? Date.ISO8601FormatStyle().parse(text) {
			return date
		}

		for format in ["yyyy-MM-dd HH:mm:ss.SSS Z", "yyyy-MM-dd HH:mm:ss Z", "yyyy-MM-dd"] {
			let formatter = DateFormatter()
			formatter.locale = Locale(identifier: "en_US_POSIX")
			formatter.timeZone = TimeZone(identifier: "UTC")
			formatter.dateFormat = format
			if let date = formatter.date(from: text) {
				return date
			}
		}

		return nil
	}

	/// `2026-11-22 08:30:00 +0000`, with milliseconds when the date has them: macOS's form, in UTC.
	static func text(_ date: Date) -> String {
		format(date, hasFraction(date) ? "yyyy-MM-dd HH:mm:ss.SSS Z" : "yyyy-MM-dd HH:mm:ss Z")
	}

	/// ISO 8601 with milliseconds, for JSON; rounded like ``text(_:)``, so both show the same time.
	static func iso8601(_ date: Date) -> String {
		format(date, "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX")
	}

	private static func hasFraction(_ date: Date) -> Bool {
		date.timeIntervalSinceReferenceDate.rounded(.down) != date.timeIntervalSinceReferenceDate
	}

	private static func format(_ date: Date, _ format: String) -> String {
		let formatter = DateFormatter()
		formatter.locale = Locale(identifier: "en_US_POSIX")
		formatter.timeZone = TimeZone(identifier: "UTC")
		formatter.dateFormat = format
		return formatter.string(from: date)
	}
}
