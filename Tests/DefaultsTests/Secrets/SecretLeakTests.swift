import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private struct Credentials: Codable, Hashable, Defaults.Serializable {
	var user: String
	var password: String
}

/// Every byte under `folder`, file by file: the suite's file, its lock and side files, the tool's and other tests' files.
private func filesHolding(_ needle: String, under folder: URL) -> [String] {
	let bytes = Data(needle.utf8)
	var found: [String] = []
	guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
		return found
	}

	for case let file as URL in files {
		if let data = try? Data(contentsOf: file), data.range(of: bytes) != nil {
			found.append(file.path)
		}
	}

	return found
}

/// The sentinel search: a secret written with a unique value must appear in no byte the library writes, prints or reports.
@Suite("Secrets never in the clear elsewhere: the sentinel search")
struct SecretLeakTests {
	@Test("a secret's sentinel is in no file, export, tool output or diagnostic, while an ordinary key's marker is in each of them")
	func sentinelAppearsNowhere() throws {
		let sentinel = "SENTINEL-\(UUID().uuidString)"
		let marker = "MARKER-\(UUID().uuidString)"
		let suite = TestSuite()
		let store = InMemorySecretStore()
		Suite.installSecretStore(store, for: suite.defaults)
		let token = Defaults.Key<String?>("apiToken", suite: suite.defaults, secret: true)
		let login = Defaults.Key<Credentials?>("login", suite: suite.defaults, secret: true)
		let ordinary = Defaults.Key<String>(suite.keyName("ordinary"), default: "", suite: suite.defaults)

		let (_, diagnostics) = try DiagnosticReporter.capturing {
			Defaults[token] = sentinel
			Defaults[login] = Credentials(user: "ada", password: sentinel)
			Defaults[ordinary] = marker
			// Every read path, and a read that does not decode, which is reported.
			_ = Defaults[token]
			_ = Defaults[Defaults.Key<Int>("apiToken", default: 0, suite: suite.defaults, secret: true)]
			_ = try token.readSecret()
			try Defaults.flush(suite: suite.defaults)
		}

		// The secrets are where they belong: the store and memory.
		#expect(Defaults[token] == sentinel)
		#expect(Defaults[login]?.password == sentinel)
		#expect(try store.secret(for: SecretItem(suite: suite.name, key: "apiToken"))?.data == Data(sentinel.utf8))

		// The files: the suite's, and every other under the preferences folder.
		#expect(filesHolding(sentinel, under: TestEnvironment.configHome).isEmpty)
		#expect(filesHolding(marker, under: TestEnvironment.configHome).contains(suite.fileURL.path))
		#expect(suite.fileContents()?["apiToken"] == nil)

		// Exports, in both formats, declaring the secret keys or not.
		for format in [Defaults.SettingsFormat.json, .propertyList] {
			let declared = try Defaults.exportSettings(suite: suite.defaults, declaring: [token, login, ordinary], format: format)
			let listed = try Defaults.exportSettings([token, login, ordinary], format: format)
			for export in [declared, listed] {
				#expect(export.range(of: Data(sentinel.utf8)) == nil)
				#expect(export.range(of: Data(marker.utf8)) != nil)
			}
		}

		// The `defaults` tool: what it reads, exports and finds.
		// `find` repeats what it was asked for: that it finds nothing is what counts.
		let find = try ChildProcess.run("defaults", ["find", sentinel], environment: TestEnvironment.environment)
		#expect(find.output.hasPrefix("No domain, key, nor value containing"))
		for arguments in [["read", suite.name], ["export", suite.name, "-"], ["find", "apiToken"], ["read", suite.name, "apiToken"]] {
			let result = try ChildProcess.run("defaults", arguments, environment: TestEnvironment.environment)
			#expect(!result.output.contains(sentinel), "defaults \(arguments.joined(separator: " "))")
			#expect(!result.errorOutput.contains(sentinel), "defaults \(arguments.joined(separator: " "))")
		}

		#expect(try ChildProcess.run("defaults", ["read", suite.name], environment: TestEnvironment.environment).output.contains(marker))

		// Diagnostics: the undecodable read was reported, without the value.
		#expect(diagnostics.contains { $0.kind == .secretUnavailable && $0.key == "apiToken" })
		#expect(diagnostics.allSatisfy { !$0.description.contains(sentinel) })
	}

	@Test("an import declaring a secret key leaves its value out, with a diagnostic, and imports the rest")
	func importLeavesSecretsOut() throws {
		let sentinel = "SENTINEL-\(UUID().uuidString)"
		let suite = TestSuite()
		Suite.installSecretStore(InMemorySecretStore(), for: suite.defaults)
		let token = Defaults.Key<String?>("importedToken", suite: suite.defaults, secret: true)
		let ordinary = Defaults.Key<String>(suite.keyName("ordinary"), default: "", suite: suite.defaults)
		let file = Data(#"{"importedToken": "\#(sentinel)", "\#(ordinary.name)": "imported"}"#.utf8)
		let (changed, diagnostics) = try DiagnosticReporter.capturing {
			let changed = try Defaults.importSettings(file, into: suite.defaults, declaring: [token, ordinary])
			try Defaults.flush(suite: suite.defaults)
			return changed
		}

		#expect(changed == [ordinary.name])
		#expect(Defaults[ordinary] == "imported")
		#expect(Defaults[token] == nil)
		#expect(diagnostics.map(\.kind) == [.secretRefused])
		#expect(diagnostics.allSatisfy { !$0.description.contains(sentinel) })
		#expect(filesHolding(sentinel, under: TestEnvironment.configHome).isEmpty)
	}

	@Test("a write the store refuses keeps the secret nowhere: not in memory, not in the file, not in the diagnostic")
	func refusedWriteKeepsNothing() throws {
		let sentinel = "SENTINEL-\(UUID().uuidString)"
		let suite = TestSuite()
		Suite.installSecretStore(UnavailableSecretStore(reason: "no keyring in this test"), for: suite.defaults)
		let token = Defaults.Key<String>("refusedToken", default: "none", suite: suite.defaults, secret: true)
		let (_, diagnostics) = try DiagnosticReporter.capturing {
			Defaults[token] = sentinel
			Defaults[token] = sentinel
			#expect(Defaults[token] == "none")
			#expect(Defaults[token] == "none")
			try Defaults.flush(suite: suite.defaults)
		}

		#expect(filesHolding(sentinel, under: TestEnvironment.configHome).isEmpty)
		// One for the refused writes, one for the failed read: each names the key and the reason.
		#expect(diagnostics.count == 2)
		#expect(diagnostics.allSatisfy { $0.kind == .secretUnavailable && $0.key == "refusedToken" && $0.message.contains("no keyring in this test") })
		#expect(diagnostics.allSatisfy { !$0.description.contains(sentinel) })
		#expect(throws: Defaults.SecretError.unavailable(reason: "no keyring in this test")) { try token.writeSecret(sentinel) }
	}
}
