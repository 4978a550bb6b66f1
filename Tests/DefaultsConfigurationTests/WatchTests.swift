#if Configuration
import DefaultsTestSupport
import Configuration
import Defaults
import DefaultsConfiguration
import Foundation
import Testing

@Suite("DefaultsProvider watchers hear every change")
struct WatchTests {
	/// The operator's path: `defaults write` in another process reaches a `ConfigReader` watcher, then `defaults delete` does.
	@Test func anotherProcessWritingTheSuiteReachesAReaderWatcher() async throws {
		let suite = TestSuite()
		let reader = ConfigReader(providers: [DefaultsProvider(suite: suite.defaults)])
		let seen = try await withDeadline {
			try await reader.watchInt(forKey: "http.timeout") { updates in
				var seen: [Int?] = []
				var toolExited = ContinuousClock.now
				var delays: [Duration] = []
				for await timeout in updates {
					seen.append(timeout)
					if seen.count > 1 {
						delays.append(ContinuousClock.now - toolExited)
					}

					switch timeout {
					case nil where seen.count == 1:
						try suite.runTool("write", suite.name, "http", "-dict-add", "timeout", "-int", "30")
						toolExited = .now
					case 30:
						try suite.runTool("delete", suite.name, "http")
						toolExited = .now
					case nil:
						print("measured: a ConfigReader watcher saw `defaults write` and `defaults delete` \(delays.map { "\(Int($0 / .milliseconds(1))) ms" }.joined(separator: " and ")) after the tool exited")
						return seen
					default:
						break
					}
				}

				return seen
			}
		}

		#expect(seen == [nil, 30, nil])
	}

	/// An administrator installs, then removes, a system-wide default: a watcher sees both, as it sees a user's change.
	@Test func anAdministratorsSystemWideFileReachesAReaderWatcher() async throws {
		let suite = TestSuite()
		let file = TestEnvironment.systemFolder.appendingPathComponent("\(suite.name).plist")
		defer { try? FileManager.default.removeItem(at: file) }
		let reader = ConfigReader(providers: [DefaultsProvider(suite: suite.defaults)])
		let seen = try await withDeadline {
			try await reader.watchInt(forKey: "http.timeout") { updates in
				var seen: [Int?] = []
				for await timeout in updates {
					seen.append(timeout)
					switch (seen.count, timeout) {
					case (1, nil):
						let data = try PropertyListSerialization.data(fromPropertyList: ["http": ["timeout": 45]], format: .binary, options: 0)
						try data.write(to: file, options: .atomic)
					case (_, 45):
						try FileManager.default.removeItem(at: file)
					case (_, nil):
						return seen
					default:
						break
					}
				}

				return seen
			}
		}

		#expect(seen == [nil, 45, nil])
	}

	@Test func flatKeysAreWatchedToo() async throws {
		let suite = TestSuite()
		let reader = ConfigReader(providers: [DefaultsProvider(suite: suite.defaults, keyMapping: .flat())])
		let seen = try await withDeadline {
			try await reader.watchDouble(forKey: "http.timeout", default: 5) { updates in
				var seen: [Double] = []
				for await timeout in updates {
					seen.append(timeout)
					if seen.count == 1 {
						try suite.runTool("write", suite.name, "http_timeout", "-int", "12")
					} else {
						return seen
					}
				}

				return seen
			}
		}

		#expect(seen == [5, 12], "an integer written by the tool reads as a double")
	}

	/// The library's own write paths in this process: typed writes and reset.
	@Test func writesAndResetsInThisProcessAreDelivered() async throws {
		let suite = TestSuite()
		let limits = Defaults.Key<[String: Int]>("limits", default: [:], suite: suite.defaults)
		let provider = DefaultsProvider(suite: suite.defaults)
		let seen = try await withDeadline {
			try await provider.watchValue(forKey: ["limits", "requests"], type: .int) { updates in
				var seen: [ConfigContent?] = []
				for await result in updates {
					let content = try result.get().value?.content
					seen.append(content)
					switch seen.count {
					case 1:
						Defaults[limits] = ["requests": 100]
					case 2:
						Defaults[limits] = ["requests": 100, "other": 1]   // requests unchanged: nothing delivered
						Defaults[limits] = ["requests": 200]
					case 3:
						limits.reset()
					default:
						return seen
					}
				}

				return seen
			}
		}

		#expect(seen == [nil, .int(100), .int(200), nil])
	}

	@Test func snapshotWatchersHearEveryKey() async throws {
		let suite = TestSuite()
		let first = Defaults.Key<Int>("first", default: 0, suite: suite.defaults)
		let second = Defaults.Key<String>("second", default: "", suite: suite.defaults)
		let provider = DefaultsProvider(suite: suite.defaults, keyMapping: .flat())
		let seen = try await withDeadline {
			try await provider.watchSnapshot { snapshots in
				var seen: [String] = []
				for await snapshot in snapshots {
					let one = try snapshot.value(forKey: ["first"], type: .int).value?.content
					let two = try snapshot.value(forKey: ["second"], type: .string).value?.content
					seen.append("\(one.map { "\($0)" } ?? "-") \(two.map { "\($0)" } ?? "-")")
					switch seen.count {
					case 1:
						Defaults[first] = 1
					case 2:
						Defaults[second] = "two"
					case 3:
						Defaults.removeAll(suite: suite.defaults)
					default:
						if seen.last == "- -" {
							return seen
						}
					}
				}

				return seen
			}
		}

		let values = try #require(seen)
		#expect(values.prefix(3) == ["- -", "int(1) -", "int(1) string(\"two\")"])
		#expect(values.last == "- -")
	}
}
#endif
