import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What may lie at `$CREDENTIALS_DIRECTORY/<key>` when something other than systemd put it there: a hand-made folder, a mistaken administrator, a process with write access.
enum HostileCredential: String, CaseIterable, Sendable, CustomTestStringConvertible {
	case fifo, linkToFIFO, linkToDevZero, linkToFolder, danglingLink, linkLoop, folder, hugeFile

	var testDescription: String {
		rawValue
	}

	/// Puts the entry at `file`, with what it needs beside it in `folder`.
	func make(at file: URL, in folder: URL) throws {
		let beside = folder.appendingPathComponent("beside-\(rawValue)")
		switch self {
		case .fifo:
			try Self.makeFIFO(file)
		case .linkToFIFO:
			try Self.makeFIFO(beside)
			try Self.link(file, to: beside.path)
		case .linkToDevZero:
			try Self.link(file, to: "/dev/zero")
		case .linkToFolder:
			try FileManager.default.createDirectory(at: beside, withIntermediateDirectories: false)
			try Self.link(file, to: beside.path)
		case .danglingLink:
			try Self.link(file, to: beside.path)
		case .linkLoop:
			try Self.link(file, to: beside.path)
			try Self.link(beside, to: file.path)
		case .folder:
			try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
		case .hugeFile:
			// 100 MB of holes: as large as a reader must refuse, with no disk spent.
			#expect(FileManager.default.createFile(atPath: file.path, contents: nil))
			let handle = try FileHandle(forWritingTo: file)
			try handle.truncate(atOffset: 100_000_000)
			try handle.close()
		}
	}

	private static func makeFIFO(_ url: URL) throws {
		try #require(mkfifo(url.path, 0o600) == 0, "mkfifo: \(errno)")
	}

	private static func link(_ url: URL, to destination: String) throws {
		try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
	}
}

/// What an unreadable credential answers.
private struct UnreadableOutcome: Sendable {
	let provides: Bool
	let read: Result<SecretBytes?, Defaults.SecretError>
	let remove: Result<Void, Defaults.SecretError>
}

/**
Runs `body` on a thread of its own whose file-system user is `nobody`, which
Linux keeps per thread: so a test running as root meets the permission checks
an ordinary user does. `nil` when the process may not change it.
*/
private func asNobody<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
	BackgroundThread { () -> T? in
		// Not in the Glibc module: found by name.
		typealias SetFileSystemUser = @convention(c) (UInt32) -> Int32
		guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "setfsuid") else {
			return nil
		}

		let setfsuid = unsafeBitCast(symbol, to: SetFileSystemUser.self)
		_ = setfsuid(65534)
		defer { _ = setfsuid(0) }
		// A change that failed leaves root: an id that cannot be set returns the current one.
		return setfsuid(UInt32.max) == 65534 ? body() : nil
	}.wait()
}

/**
systemd credentials that are not what systemd makes, with real files: the read
never hangs and never reads the whole of something endless, fails with a typed
error naming the file, and the credential stays the key's (the keyring behind
it is neither read nor written instead).
*/
@Suite("Secret keys from systemd credentials: hostile files")
struct CredentialHostileTests {
	@Test("a credential that is no readable regular file fails at once with a typed error, a write is refused as read-only, and the key reads its default with one diagnostic, never the keyring's value", arguments: HostileCredential.allCases)
	func hostileEntry(_ hostile: HostileCredential) throws {
		let folder = try CredentialsFolder([:])
		let file = folder.url.appendingPathComponent("apiToken")
		try hostile.make(at: file, in: folder.url)
		let credentials = CredentialSecretStore(environment: folder.environment)
		let item = SecretItem(suite: "service", key: "apiToken")

		let started = ContinuousClock.now
		let reading = BackgroundThread { Result { () throws(Defaults.SecretError) in try credentials.secret(for: item) } }
		let outcome = try #require(reading.wait(atMost: .seconds(5)), "reading the credential (\(hostile)) hung")
		#expect(ContinuousClock.now - started < .seconds(1))
		guard case .failure(.failed(let reason)) = outcome else {
			Issue.record("expected a failure, got \(outcome)")
			return
		}

		#expect(reason.contains(file.path))
		#expect(credentials.provides(item))
		#expect(throws: Defaults.SecretError.readOnly(credential: file.path)) { try credentials.store(SecretBytes(text: "x"), for: item) }

		let desktop = InMemorySecretStore()
		let suite = folder.suite(desktop: desktop)
		try desktop.store(SecretBytes(text: "SENTINEL-from-the-keyring"), for: SecretItem(suite: suite.name, key: "apiToken"))
		let key = Defaults.Key<String>("apiToken", default: "fallback", suite: suite.defaults, secret: true)
		let (reads, diagnostics) = DiagnosticReporter.capturing {
			[Defaults[key], Defaults[key], Defaults[key]]
		}
		#expect(reads == ["fallback", "fallback", "fallback"])
		#expect(diagnostics.map(\.kind) == [.secretUnavailable])
		#expect(diagnostics.allSatisfy { $0.description.contains("apiToken") && !$0.description.contains("SENTINEL") })
	}

	@Test("an unreadable credential, or a credentials folder its user may not enter, is the key's and fails with a typed error (as root: checked as nobody, on a thread of its own)")
	func unreadable() throws {
		let folder = try CredentialsFolder(["apiToken": "t0k3n"])
		let item = SecretItem(suite: "service", key: "apiToken")
		let file = folder.url.appendingPathComponent("apiToken")
		let credentials = CredentialSecretStore(environment: folder.environment)
		defer { chmod(folder.url.path, 0o700) }
		let checks = { @Sendable () -> UnreadableOutcome in
			UnreadableOutcome(
				provides: credentials.provides(item),
				read: Result { () throws(Defaults.SecretError) in try credentials.secret(for: item) },
				remove: Result { () throws(Defaults.SecretError) in try credentials.remove(item) }
			)
		}
		for path in [file.path, folder.url.path] {
			try #require(chmod(path, 0) == 0)
			let outcome = geteuid() == 0 ? try #require(asNobody(checks), "this root may not change its file-system user") : checks()
			#expect(outcome.provides, "\(path)")
			guard case .failure(.failed(let reason)) = outcome.read else {
				Issue.record("expected a failure, got \(outcome.read)")
				continue
			}

			#expect(reason.contains(file.path))
			guard case .failure(.readOnly(credential: file.path)) = outcome.remove else {
				Issue.record("expected the removal refused as read-only, got \(outcome.remove)")
				continue
			}
		}
	}

	@Test("no credential: $CREDENTIALS_DIRECTORY missing, a file rather than a folder, or a key name too long to be a file's: the keyring behind answers and takes writes")
	func noCredential() throws {
		let folder = try CredentialsFolder(["notAFolder": "x"])
		let long = String(repeating: "k", count: 300)
		let cases: [(environment: [String: String], key: String)] = [
			(["CREDENTIALS_DIRECTORY": folder.url.appendingPathComponent("missing").path], "apiToken"),
			(["CREDENTIALS_DIRECTORY": folder.url.appendingPathComponent("notAFolder").path], "apiToken"),
			(folder.environment, long),
		]
		for (environment, key) in cases {
			let desktop = InMemorySecretStore()
			let store = CredentialFirstSecretStore(credentials: CredentialSecretStore(environment: environment), desktop: desktop)
			let item = SecretItem(suite: "service", key: key)
			#expect(try store.secret(for: item) == nil)
			try store.store(SecretBytes(text: "kept"), for: item)
			#expect(try store.secret(for: item)?.data == Data("kept".utf8))
			#expect(try desktop.secret(for: item)?.data == Data("kept".utf8))
		}
	}

	@Test("an empty credential is the empty string; for an Int key, the default with one diagnostic")
	func empty() throws {
		let folder = try CredentialsFolder(["token": "", "port": ""])
		let suite = folder.suite()
		let token = Defaults.Key<String?>("token", suite: suite.defaults, secret: true)
		let port = Defaults.Key<Int>("port", default: 443, suite: suite.defaults, secret: true)
		let (reads, diagnostics) = DiagnosticReporter.capturing {
			(Defaults[token], Defaults[port], Defaults[port])
		}
		#expect(reads.0 == "")
		#expect(reads.1 == 443 && reads.2 == 443)
		#expect(diagnostics.map(\.key) == ["port"])
	}
}
