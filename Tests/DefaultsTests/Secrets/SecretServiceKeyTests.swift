#if os(Linux)
import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Secret keys against the throwaway gnome-keyring of `scripts/secret-service run`. Part of the client's suite, so
/// they run one at a time with its tests, which lock the keyring and stop the daemon.
extension SecretServiceClientTests {
	@Test("SecretService: a secret key round-trips through Defaults[key] as an item a person recognises, which a fresh process reads", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretKeyRoundTrip() throws {
		let client = SecretServiceClient(applicationName: "DefaultsTests")
		let name = SecretServiceTestDaemon.uniqueSuite()
		let suite = try #require(UserDefaults(suiteName: name))
		let token = Defaults.Key<String?>("apiToken", suite: suite, secret: true)
		let login = Defaults.Key<Login?>("login", suite: suite, secret: true)
		defer {
			_ = try? client.clear(suite: name, key: "apiToken")
			_ = try? client.clear(suite: name, key: "login")
		}

		let (_, diagnostics) = DiagnosticReporter.capturing {
			Defaults[token] = "s3cr3t"
			Defaults[login] = Login(user: "ada", password: "lovelace")
		}
		#expect(diagnostics.isEmpty)
		#expect(Defaults[token] == "s3cr3t")
		#expect(try client.lookupString(suite: name, key: "apiToken") == "s3cr3t")
		let item = try SecretServiceTestDaemon.itemDescription(suite: name, key: "apiToken")
		#expect(item.contains("\(ProcessInfo.processInfo.processName) – apiToken"))
		#expect(item.contains("'suite': <'\(name)'>") || item.contains("'suite': '\(name)'"))
		#expect(try SecretServiceTestDaemon.itemDescription(suite: name, key: "login").contains("– login"))

		let fresh = try HelperProcess.run(["secret-read", name, "apiToken"])
		#expect(fresh.lines.contains("value s3cr3t"))
		#expect(try login.readSecret() == Login(user: "ada", password: "lovelace"))

		Defaults[token] = nil
		#expect(try client.lookup(suite: name, key: "apiToken") == nil)
		#expect(try HelperProcess.run(["secret-read", name, "apiToken"]).lines.contains("none"))
	}

	@Test("SecretService: a locked keyring reads the default with one 'locked' diagnostic, not \"no value\"; the typed API throws .locked; unlocked, it reads", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretKeyLocked() throws {
		let client = SecretServiceClient(applicationName: "DefaultsTests")
		let name = SecretServiceTestDaemon.uniqueSuite()
		try client.store("kept", suite: name, key: "token")
		defer { _ = try? client.clear(suite: name, key: "token") }
		let key = Defaults.Key<String>("token", default: "default", suite: try #require(UserDefaults(suiteName: name)), secret: true)
		try SecretServiceTestDaemon.whileLocked { () throws in
			let (reads, diagnostics) = DiagnosticReporter.capturing {
				[Defaults[key], Defaults[key], Defaults[key]]
			}
			#expect(reads == ["default", "default", "default"])
			#expect(diagnostics.count == 1)
			#expect(diagnostics.first?.kind == .secretUnavailable)
			#expect(diagnostics.first?.key == "token")
			#expect(diagnostics.first?.message.contains("locked") == true)
			#expect(throws: Defaults.SecretError.locked) { try key.readSecret() }
			let (_, refused) = DiagnosticReporter.capturing {
				#expect(throws: Defaults.SecretError.locked) { try key.writeSecret("new") }
			}
			#expect(refused.count == 1)
		}

		#expect(try key.readSecret() == "kept")
		#expect(Defaults[key] == "kept")
	}

	@Test("SecretService: a stopped daemon makes a first read return the default after about a second, with a timeout diagnostic; continued, it reads", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretKeyStoppedDaemon() throws {
		let client = SecretServiceClient(applicationName: "DefaultsTests")
		let name = SecretServiceTestDaemon.uniqueSuite()
		try client.store("before", suite: name, key: "token")
		defer { _ = try? client.clear(suite: name, key: "token") }
		let key = Defaults.Key<String?>("token", suite: try #require(UserDefaults(suiteName: name)), secret: true)
		try SecretServiceTestDaemon.whileStopped {
			let started = ContinuousClock.now
			let (read, diagnostics) = DiagnosticReporter.capturing { Defaults[key] }
			let elapsed = ContinuousClock.now - started
			SecretServiceTestDaemon.report("stopped daemon: a secret key's first read returned the default after \(elapsed)")
			#expect(read == nil)
			#expect(elapsed >= .milliseconds(900))
			#expect(elapsed < .milliseconds(1_600))
			#expect(diagnostics.count == 1)
			#expect(diagnostics.first?.message.contains("did not answer within") == true)

			// Within the retry interval, reads do not wait again.
			let again = ContinuousClock.now
			#expect(Defaults[key] == nil)
			#expect(ContinuousClock.now - again < .milliseconds(100))
		}

		#expect(try key.readSecret() == "before")
		#expect(Defaults[key] == "before")
	}
}
#endif
