#if os(Linux)
import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Secrets another process changes, heard through the Secret Service's signals. Part of the client's suite, so they
/// run one at a time with its tests, which lock the keyring and stop or kill the daemon.
extension SecretServiceClientTests {
	private static var signals: SecretServiceSignals {
		SecretServiceSignals.shared
	}

	/// The monotonic instant another process wrote at (the helper's "at NS" line).
	private static func writtenAt(_ result: (status: Int32, lines: [String])) -> UInt64? {
		result.lines.first { $0.hasPrefix("at ") }.flatMap { UInt64($0.dropFirst(3)) }
	}

	/// A secret key "token" of a suite of its own, as each of these tests starts with it.
	private struct ListeningSecretKey {
		let client: SecretServiceClient
		let suiteName: String
		let key: Defaults.Key<String?>
		/// The key's changes as "old→new", from after it held its first value.
		let heard: Recorder<String>
	}

	/**
	Runs `body` with the key "token" of a suite of its own holding `value`,
	once this process listens to the service's signals (so another process's
	change is heard, not missed) and with an observer recording its changes;
	removes the key, and `otherKeys` of the suite, from the keyring afterwards.
	*/
	private func withListeningSecretKey(
		holding value: String,
		alsoClearing otherKeys: [String] = [],
		test: String = #function,
		_ body: (ListeningSecretKey) async throws -> Void
	) async throws {
		let client = SecretServiceClient(applicationName: "DefaultsTests")
		let name = SecretServiceTestDaemon.uniqueSuite(test)
		defer {
			for key in ["token"] + otherKeys {
				_ = try? client.clear(suite: name, key: key)
			}
		}

		let key = Defaults.Key<String?>("token", suite: try #require(UserDefaults(suiteName: name)), secret: true)
		Defaults[key] = value
		#expect(await eventually { Self.signals.isListening }, "\(Self.signals.failure ?? "not listening yet")")
		let heard = Recorder<String>()
		let observation = Defaults.observe(key, options: []) { change in
			heard.append("\(change.oldValue ?? "nil")→\(change.newValue ?? "nil")")
		}
		defer { observation.invalidate() }
		try await body(ListeningSecretKey(client: client, suiteName: name, key: key, heard: heard))
	}

	@Test("SecretService: a secret another process writes or removes is heard by observe, updates() and @Default without a load", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretHeardFromAnotherProcess() async throws {
		try await withListeningSecretKey(holding: "mine", alsoClearing: ["observedOnly"]) { token in
			let key = token.key
			let wrapped = Default(key)
			let heardAt = Recorder<UInt64>()
			let timing = Defaults.observe(key, options: []) { _ in
				heardAt.append(SecretServiceTestDaemon.monotonicNanoseconds())
			}
			defer { timing.invalidate() }
			let streamed = Recorder<String>()
			let streaming = Task {
				for await value in wrapped.updates(initial: false) {
					streamed.append(value ?? "nil")
				}
			}
			defer { streaming.cancel() }

			let written = try HelperProcess.run(["secret-write", token.suiteName, "token", "theirs"])
			#expect(written.lines.contains("written"), "\(written.lines)")
			#expect(await eventually { token.heard.values == ["mine→theirs"] }, "\(token.heard.values)")
			#expect(Defaults[key] == "theirs")
			#expect(wrapped.wrappedValue == "theirs")
			if let writtenAt = Self.writtenAt(written), let at = heardAt.values.first {
				SecretServiceTestDaemon.report("another process's write heard by an observer \(Double(Int64(at) - Int64(writtenAt)) / 1e6) ms after it returned")
			}

			let removed = try HelperProcess.run(["secret-write", token.suiteName, "token", "-"])
			#expect(removed.lines.contains("written"), "\(removed.lines)")
			#expect(await eventually { token.heard.values == ["mine→theirs", "theirs→nil"] }, "\(token.heard.values)")
			#expect(Defaults[key] == nil)
			#expect(await eventually { streamed.values == ["theirs", "nil"] }, "\(streamed.values)")

			// A key only observed, never read: its value is read in the background when the observation starts, so the
			// first change heard has a value to differ from.
			try token.client.store("one", suite: token.suiteName, key: "observedOnly")
			let observedOnly = Defaults.Key<String?>("observedOnly", suite: key.suite, secret: true)
			let heardOnly = Recorder<String>()
			let onlyObservation = Defaults.observe(observedOnly, options: []) { change in
				heardOnly.append("\(change.oldValue ?? "nil")→\(change.newValue ?? "nil")")
			}
			defer { onlyObservation.invalidate() }
			#expect(await eventually { observedOnly.suiteObject.secrets.isKnown("observedOnly") })
			#expect(try HelperProcess.run(["secret-write", token.suiteName, "observedOnly", "two"]).lines.contains("written"))
			#expect(await eventually { heardOnly.values == ["one→two"] }, "\(heardOnly.values)")
		}
	}

	@Test("SecretService: this process's own write is heard once, not again when the service signals it", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretOwnWriteNoEcho() async throws {
		try await withListeningSecretKey(holding: "first", alsoClearing: ["marker"]) { token in
			let key = token.key
			let marker = Defaults.Key<String?>("marker", suite: key.suite, secret: true)
			Defaults[marker] = "m0"
			for value in ["second", "third"] {
				Defaults[key] = value
			}
			try key.writeSecret(nil)
			// Every pass that starts from here reads the key after the writes; another process's change guarantees one.
			let startedBefore = Self.signals.passCounts.started
			#expect(try HelperProcess.run(["secret-write", token.suiteName, "marker", "m1"]).lines.contains("written"))
			#expect(await eventually { Defaults[marker] == "m1" && Self.signals.passCounts.completed > startedBefore })
			#expect(token.heard.values == ["first→second", "second→third", "third→nil"])
		}
	}

	@Test("SecretService: a daemon stopped while this process listens blocks no read or write of other keys, nor a secret read from memory", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretSignalsStoppedDaemon() async throws {
		try await withListeningSecretKey(holding: "cached") { token in
			let key = token.key
			let plain = Defaults.Key<Int>("plain", default: 0, suite: key.suite)
			defer { Defaults.reset(plain) }
			let heardPlain = Recorder<Int>()
			let observation = Defaults.observe(plain, options: []) { heardPlain.append($0.newValue) }
			defer { observation.invalidate() }

			try await SecretServiceTestDaemon.whileStopped {
				// A pass that reads the secrets again now waits on the stopped daemon, for its timeout at least.
				let before = Self.signals.passCounts
				Self.signals.requestPass()
				#expect(await eventually { Self.signals.passCounts.started > before.started })
				var reads: [String?] = []
				for value in 1...20 {
					Defaults[plain] = value
					reads.append(Defaults[key])
					reads.append(try key.readSecret())
				}
				let counts = Self.signals.passCounts
				#expect(counts.completed < counts.started, "the pass ended before the reads and writes did: they did not run while it waited")
				#expect(Defaults[plain] == 20)
				#expect(heardPlain.values == Array(1...20))
				#expect(reads == Array(repeating: "cached", count: 40))
			}

			// Continued, the pass ends, and a change from another process is heard again.
			#expect(await eventually { let counts = Self.signals.passCounts; return counts.completed == counts.started })
			#expect(try HelperProcess.run(["secret-write", token.suiteName, "token", "after"]).lines.contains("written"))
			#expect(await eventually { token.heard.values == ["cached→after"] }, "\(token.heard.values)")
		}
	}

	@Test("SecretService: a daemon killed and started again is heard without subscribing again", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretSignalsRestartedDaemon() async throws {
		try await withListeningSecretKey(holding: "mine") { token in
			let owners = Self.signals.ownerChanges
			let killed = ContinuousClock.now
			#expect(kill(try SecretServiceTestDaemon.pid(), SIGKILL) == 0)
			// A new daemon, unlocked with the password as at a login, takes the service's name.
			try SecretServiceTestDaemon.control("unlock")
			#expect(await eventually { Self.signals.ownerChanges > owners })
			// The new daemon read the keyring from disk: the value did not change, so nobody was told.
			#expect(Defaults[token.key] == "mine")

			#expect(try HelperProcess.run(["secret-write", token.suiteName, "token", "theirs"]).lines.contains("written"))
			#expect(await eventually { token.heard.values == ["mine→theirs"] }, "\(token.heard.values)")
			SecretServiceTestDaemon.report("daemon killed and started again: a change through the new one heard \(ContinuousClock.now - killed) after the kill")
		}
	}
}
#endif
