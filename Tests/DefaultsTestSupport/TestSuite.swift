import Defaults
import Foundation

/**
A uniquely named suite in the test process's preferences folder
(``TestEnvironment/configHome``), removed with its file when the test ends:
the one suite fixture of every test target.

```swift
let suite = TestSuite()
let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
```
*/
public final class TestSuite: @unchecked Sendable {
	public let name: String
	public let defaults: UserDefaults

	public init(_ label: String = #function) {
		_ = TestEnvironment.configHome
		let sanitized = label.filter { $0.isLetter || $0.isNumber }
		name = "defaults-tests.\(sanitized).\(UUID().uuidString)"
		defaults = UserDefaults(suiteName: name)!
	}

	deinit {
		try? Defaults.flush(suite: defaults)
		// Not `removePersistentDomain`: it makes Foundation write the file itself.
		for key in defaults.dictionaryRepresentation().keys {
			defaults.removeObject(forKey: key)
		}

		TestEnvironment.removeFiles(ofSuite: name)
	}

	public var fileURL: URL {
		TestEnvironment.fileURL(ofSuite: name)
	}

	/// A key name no other test uses: registered defaults are process-wide on Linux.
	public func keyName(_ base: String = "key") -> String {
		"\(base)_\(UUID().uuidString.prefix(8))"
	}

	/// What the suite's file holds now, as Foundation reads it; `nil` when there is no file or it does not parse.
	public func fileContents() -> [String: Any]? {
		guard let data = FileManager.default.contents(atPath: fileURL.path) else {
			return nil
		}

		return try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
	}

	/// Waits up to `timeout`, blocking the calling thread, for `condition`; for tests that cannot `await` (see ``eventually(isolation:timeout:_:)``).
	public func wait(timeout: TimeInterval, until condition: () -> Bool) -> Bool {
		let deadline = Date().addingTimeInterval(timeout)
		while Date() < deadline {
			if condition() {
				return true
			}

			Thread.sleep(forTimeInterval: 0.005)
		}

		return condition()
	}
}
