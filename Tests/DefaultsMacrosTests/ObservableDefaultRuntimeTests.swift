import Defaults
import DefaultsMacros
import DefaultsTestSupport
import Foundation
import Observation
import Testing
@testable import Defaults

/// The suite's file goes to the test process's temporary configuration folder
/// (the same one the library tests use), never to the user's `~/.config`.
private let macroSuiteName: String = {
	_ = TestEnvironment.configHome
	return "defaults-macro-tests.\(UUID().uuidString)"
}()

extension Defaults.Keys {
	fileprivate static let macroUnicorn = Key<Bool>("macroUnicorn", default: false, suite: UserDefaults(suiteName: macroSuiteName)!)
	fileprivate static let macroName = Key<String?>("macroName", suite: UserDefaults(suiteName: macroSuiteName)!)
	fileprivate static let macroCount = Key<Int>("macroCount", default: 0, suite: UserDefaults(suiteName: macroSuiteName)!)
}

@Observable
private final class UnicornModel {
	@ObservableDefault(.macroUnicorn)
	@ObservationIgnored
	var hasUnicorn: Bool

	@ObservableDefault(.macroName)
	@ObservationIgnored
	var name: String?

	@ObservableDefault(Defaults.Keys.macroCount)
	@ObservationIgnored
	var count: Int

	var unrelated = 0
}

/// Counts the `onChange` calls of `withObservationTracking` around `read`.
private final class ChangeCounter: @unchecked Sendable {
	private let lock = NSLock()
	private var storage = 0

	var count: Int { lock.withLock { storage } }

	func track(_ read: @escaping () -> Void) {
		withObservationTracking(read) { [self] in
			lock.withLock { storage += 1 }
		}
	}
}

// The keys are shared by these tests, so they run one at a time.
@Suite("@ObservableDefault at run time", .serialized)
struct ObservableDefaultRuntimeTests {
	init() {
		Defaults.reset(.macroUnicorn, .macroName, .macroCount)
	}

	@Test func suiteFileStaysInTheTemporaryFolder() throws {
		Defaults[.macroCount] = 1
		try Defaults.flush(suite: Defaults.Keys.macroCount.suite)
		let file = TestEnvironment.fileURL(ofSuite: macroSuiteName)
		#expect(FileManager.default.fileExists(atPath: file.path))
		try? FileManager.default.removeItem(at: file)
	}

	@Test func readsTheStoreAndWritesThrough() {
		let model = UnicornModel()
		#expect(model.hasUnicorn == false)
		model.hasUnicorn = true
		#expect(Defaults[.macroUnicorn] == true)
		Defaults[.macroUnicorn] = false
		#expect(model.hasUnicorn == false)

		model.name = "Ada"
		#expect(Defaults[.macroName] == "Ada")
		model.name = nil
		#expect(Defaults[.macroName] == nil)
	}

	@Test func aChangeFromAnywhereFiresOnChange() {
		let model = UnicornModel()
		let other = UnicornModel()

		let viaStore = ChangeCounter()
		viaStore.track { _ = model.hasUnicorn }
		Defaults[.macroUnicorn] = true
		#expect(viaStore.count == 1)

		let viaOtherInstance = ChangeCounter()
		viaOtherInstance.track { _ = model.hasUnicorn }
		other.hasUnicorn = false
		#expect(viaOtherInstance.count == 1)

		let viaReset = ChangeCounter()
		viaReset.track { _ = model.count }
		Defaults[.macroCount] = 5
		let afterReset = ChangeCounter()
		afterReset.track { _ = model.count }
		Defaults.reset(.macroCount)
		#expect(viaReset.count == 1)
		#expect(afterReset.count == 1)
		#expect(model.count == 0)
	}

	@Test func writingThePropertyFiresOnChangeOnceWithoutRecursion() {
		let model = UnicornModel()
		let counter = ChangeCounter()
		counter.track { _ = model.count }
		model.count += 1
		model.count += 1
		#expect(counter.count == 1, "onChange fires once per tracking")
		#expect(Defaults[.macroCount] == 2)
	}

	@Test func untrackedPropertiesDoNotFire() {
		let model = UnicornModel()
		let counter = ChangeCounter()
		counter.track { _ = model.unrelated }
		Defaults[.macroUnicorn] = true
		#expect(counter.count == 0)
	}

	@Test func anAdministratorsSystemWideValueFiresOnChange() async throws {
		let model = UnicornModel()
		let file = TestEnvironment.systemFolder.appendingPathComponent("\(macroSuiteName).plist")
		defer { try? FileManager.default.removeItem(at: file) }
		let installed = ChangeCounter()
		installed.track { _ = model.count }
		try PropertyListSerialization.data(fromPropertyList: ["macroCount": 42], format: .binary, options: 0).write(to: file, options: .atomic)
		#expect(await eventually { installed.count == 1 })
		#expect(model.count == 42)

		let removed = ChangeCounter()
		removed.track { _ = model.count }
		try FileManager.default.removeItem(at: file)
		#expect(await eventually { removed.count == 1 })
		#expect(model.count == 0)
	}

	@Test func releasingTheModelStopsObserving() {
		weak var weakModel: UnicornModel?
		do {
			let model = UnicornModel()
			_ = model.hasUnicorn
			weakModel = model
			#expect(ObservedKey(Defaults.Keys.macroUnicorn).observerCount == 1)
		}

		#expect(weakModel == nil)
		#expect(ObservedKey(Defaults.Keys.macroUnicorn).observerCount == 0)
		Defaults[.macroUnicorn] = true
	}
}
