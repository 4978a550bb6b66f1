import Foundation

extension Defaults {
	/**
	One step in the history of a suite's settings: a version number and the
	code that brings the stored values from the previous version to this one.

	A migration reads keys as they were stored then and writes them in their
	new form through the ``MigrationContext`` it is given; it never touches
	the suite directly. Declare them once, oldest first, and run them at
	launch with ``Defaults/migrate(_:suite:)``.

	```swift
	let settingsMigrations: [Defaults.Migration] = [
		// Version 2 renamed a key.
		Defaults.Migration(version: 2) { settings in
			settings.rename("fontSize", to: "textSize")
		},
		// Version 3 stores the text size in points as a Double, not an Int.
		Defaults.Migration(version: 3) { settings in
			if let size = try settings.value(Int.self, forKey: "textSize") {
				try settings.set(Double(size), forKey: "textSize")
			}
		},
	]
	```
	*/
	public struct Migration: Sendable {
		/// The version the suite reaches once this migration ran; versions increase along the list.
		public let version: Int

		let migrate: @Sendable (MigrationContext) throws -> Void

		/**
		Creates a migration to `version`.

		```swift
		let migration = Defaults.Migration(version: 4) { settings in
			settings.removeObject(forKey: "legacyCache")
		}
		```
		*/
		public init(version: Int, _ migrate: @escaping @Sendable (MigrationContext) throws -> Void) {
			self.version = version
			self.migrate = migrate
		}
	}

	/**
	What ``Defaults/migrate(_:suite:)`` did.

	```swift
	let result = try Defaults.migrate(settingsMigrations)
	if !result.applied.isEmpty {
		print("settings migrated from version \(result.previousVersion ?? 0) to \(result.version)")
	}
	```
	*/
	public struct MigrationResult: Sendable, Equatable {
		/// The version recorded before the call; `nil` for a suite that had none (a new suite, or one from before migrations).
		public let previousVersion: Int?

		/// The version recorded now.
		public let version: Int

		/// The versions of the migrations that ran, in order; empty when none had to.
		public let applied: [Int]
	}

	/**
	Why ``Defaults/migrate(_:suite:)`` left the suite as it was.

	```swift
	do {
		try Defaults.migrate(settingsMigrations)
	} catch Defaults.MigrationError.failed(let version, let error) {
		print("migration to \(version) failed: \(error); it runs again at the next launch")
	}
	```
	*/
	public enum MigrationError: Error, CustomStringConvertible {
		/// The list is not usable: versions must be positive and strictly increasing.
		case invalidVersions([Int])
		/// The migration to `version` threw `error`; no migration's changes were kept.
		case failed(version: Int, error: any Error)
		/// The migrations ran, but their changes could not be written; nothing was kept.
		case persistence(PersistenceError)
		/// `migrate` was called again from inside one of the same suite's migrations.
		case nested
		/// While the migrations ran, other writers (other processes, or other threads of this one) changed `keys`, which the migrations read or wrote, every time they ran (five times): nothing was kept, and the next call tries again.
		case concurrentChanges(keys: [String])
		/// The suite records its version as something other than a whole number of zero or more (described here: a string, a fraction); no migration ran and the suite was left as it was.
		case invalidRecordedVersion(String)

		public var description: String {
			switch self {
			case .invalidVersions(let versions):
				"migration versions must be positive and strictly increasing, got \(versions)"
			case .failed(let version, let error):
				"the migration to version \(version) failed: \(error)"
			case .persistence(let error):
				"the migrated settings could not be written: \(error)"
			case .nested:
				"migrate was called from inside a migration of the same suite"
			case .concurrentChanges(let keys):
				"other writers kept changing \(keys.joined(separator: ", ")) while the migrations ran; nothing was written"
			case .invalidRecordedVersion(let found):
				"the suite records its migration version as \(found), not as a whole number; no migration ran"
			}
		}
	}
}
