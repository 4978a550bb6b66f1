import Foundation

extension Defaults {
	/**
	How large a suite's stored values may grow: a write that would pass a budget
	is refused before it changes anything, with a diagnostic, instead of being
	lost later.

	Apple's preferences stop persisting a domain past 4 MiB (1 MiB on watchOS
	and tvOS) without a word; on Linux no process reads back a suite file over
	64 MiB. Every suite starts with ``platformDefault``, which is that limit;
	set a smaller one to hear about growth long before it matters.

	Sizes are those of the suite as a binary property list, the format of its
	file (see ``Defaults/sizeReport(suite:)``).

	A budget is this process's: each process checks its writes against the
	suite as it knows it, and checks again when its flush merges them with what
	other processes wrote meanwhile (under the suite's lock). A change that
	only then passes this process's budget is refused at that flush, with the
	same diagnostic, its key back to the file's value, and ``Defaults/flush(suite:)``
	throws ``PersistenceError/sizeBudgetExceeded(key:size:budget:)``. Processes
	with different budgets each hold their own; another program (raw
	`UserDefaults`, the `defaults` tool) is held to none.

	```swift
	// At launch: warn at 80% of 1 MB, refuse any one value over 256 KB.
	Defaults.setSizeBudget(Defaults.SizeBudget(perValue: 256 * 1024, perSuite: 1024 * 1024))

	Defaults.setDiagnosticHandler { diagnostic in
		if diagnostic.kind == .sizeBudgetExceeded || diagnostic.kind == .sizeBudgetWarning {
			print(diagnostic)   // or your analytics
		}
	}
	```
	*/
	public struct SizeBudget: Sendable, Hashable, CustomStringConvertible {
		private var valueLimit: Int?

		/**
		The most one value may take, in bytes: its key's name, the value and
		their references in the suite's file. Unless set, the per-suite budget.
		*/
		public var perValue: Int {
			get { valueLimit ?? perSuite }
			set { valueLimit = newValue }
		}

		/// The most the whole suite may take, in bytes.
		public var perSuite: Int

		/**
		The part of ``perSuite`` past which a write is reported as a
		``Defaults/Diagnostic/Kind/sizeBudgetWarning``, once: 0.8 reports the
		write that makes the suite 80% full. The warning is heard again once
		the suite falls back under 90% of that size, or a budget is set.
		*/
		public var warningFraction: Double

		/**
		A budget of `perSuite` bytes for the suite and `perValue` for each
		value (`nil`: as much as the suite's), warned about at
		`warningFraction` of `perSuite`.

		```swift
		let budget = Defaults.SizeBudget(perSuite: 512 * 1024, warningFraction: 0.5)
		```
		*/
		public init(perValue: Int? = nil, perSuite: Int, warningFraction: Double = 0.8) {
			self.valueLimit = perValue
			self.perSuite = perSuite
			self.warningFraction = warningFraction
		}

		/**
		The limit of the platform's store, which every suite starts with: 4 MiB
		on macOS, iOS and visionOS, 1 MiB on watchOS and tvOS (the sizes past
		which Apple's preferences stop persisting a domain), and the 64 MiB
		the library reads back on Linux.

		```swift
		let settings = UserDefaults(suiteName: "com.example.app.settings")!
		Defaults.setSizeBudget(.platformDefault, suite: settings)   // undo a smaller budget
		```
		*/
		public static var platformDefault: Self {
			#if os(watchOS) || os(tvOS)
			// The preferences daemon refuses a domain of 1 MiB or more.
			Self(perSuite: 1024 * 1024 - 1)
			#elseif canImport(Darwin)
			// The preferences daemon refuses a domain of 4 MiB or more.
			Self(perSuite: 4 * 1024 * 1024 - 1)
			#else
			Self(perSuite: Int(FileLimits.maximumFileSize))
			#endif
		}

		/// ``warningFraction`` as it is used: within 0…1, and 1 (no early warning) when it is not a number.
		private var usedWarningFraction: Double {
			warningFraction.isNaN ? 1 : min(max(warningFraction, 0), 1)
		}

		/// The size at which the warning is due; saturated, so that no budget, however large, can trap.
		var warningSize: Int64 {
			let size = (Double(perSuite) * usedWarningFraction).rounded(.down)
			return size >= Double(Int64.max) ? .max : Int64(max(size, 0))
		}

		public var description: String {
			let fraction = "warning at \(Int((usedWarningFraction * 100).rounded()))%"
			return valueLimit.map { "\($0) bytes per value, \(perSuite) per suite, \(fraction)" } ?? "\(perSuite) bytes per suite and value, \(fraction)"
		}
	}

	/**
	Gives the suite a size budget, for this process: from now on a write that
	would pass it is refused (the value stays as it was, observers hear
	nothing, and a ``Diagnostic/Kind/sizeBudgetExceeded`` diagnostic names the
	key, the size and the budget), and so are imports and migrations that
	would (``SettingsTransferError/sizeBudgetExceeded(key:size:budget:)``).
	Values stored already stay, whatever their size: only growth is refused.

	```swift
	Defaults.setSizeBudget(Defaults.SizeBudget(perValue: 64 * 1024, perSuite: 512 * 1024), suite: .standard)
	```

	On Linux the 64 MiB the library reads back holds whatever the budget.
	Setting a budget arms its warning again.
	*/
	public static func setSizeBudget(_ budget: SizeBudget, suite: UserDefaults = .standard) {
		Suite.of(suite).sizeBudget = budget
	}

	/**
	The suite's size budget: ``SizeBudget/platformDefault`` unless set with
	``setSizeBudget(_:suite:)``.

	```swift
	let room = Defaults.sizeBudget().perSuite - Defaults.sizeReport().totalBytes
	```
	*/
	public static func sizeBudget(suite: UserDefaults = .standard) -> SizeBudget {
		Suite.of(suite).sizeBudget
	}
}
