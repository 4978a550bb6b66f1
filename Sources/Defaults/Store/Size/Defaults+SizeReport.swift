import Foundation

extension Defaults {
	/**
	How much of its budget a suite takes, key by key: see
	``Defaults/sizeReport(suite:)``.
	*/
	public struct SizeReport: Sendable, Hashable {
		/// One stored key and what it takes.
		public struct Entry: Sendable, Hashable {
			/// The key's name.
			public let name: String
			/// What the key takes in the suite's file: its name, its value and their references, in bytes.
			public let bytes: Int
		}

		/// Every stored key, largest first (keys of equal size by name).
		public let entries: [Entry]

		/**
		The size of the suite as a binary property list, in bytes: on Linux,
		the size of its file once its changes are written. It is the entries'
		sum plus the file's fixed part (header, trailer and top dictionary: a
		few dozen bytes).
		*/
		public let totalBytes: Int

		/// The suite's budget (see ``Defaults/sizeBudget(suite:)``).
		public let budget: SizeBudget

		/// Measures `contents`, a suite's stored values (the `defaults` tool measures a domain's file with it).
		package init(measuring contents: [String: PropertyListValue], budget: SizeBudget) {
			let tally = SuiteSizeTally(contents)
			entries = tally.entries.map { Entry(name: $0.name, bytes: Int($0.bytes)) }
			totalBytes = Int(tally.size)
			self.budget = budget
		}
	}

	/**
	What each key stored in `suite` takes, largest first, with the total and
	the budget: what to trim when a suite grows.

	Registered defaults and launch arguments take nothing (they are not
	stored). A suite backed by Foundation (Apple platforms) is measured as the
	library's binary property-list writer encodes it, which may differ by a
	few percent from the system's own accounting.

	```swift
	let report = Defaults.sizeReport()
	for entry in report.entries.prefix(3) {
		print("\(entry.name): \(entry.bytes) bytes")
	}
	print("\(report.totalBytes) of \(report.budget.perSuite) bytes")
	```
	*/
	public static func sizeReport(suite: UserDefaults = .standard) -> SizeReport {
		let suite = Suite.of(suite)
		return SizeReport(measuring: suite.values.storedValues(), budget: suite.sizeBudget)
	}
}
