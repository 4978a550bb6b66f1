import DefaultsTestSupport
import Foundation
import Testing

/// Observation call sites written for the Defaults 9.x package: they must compile, unchanged, in both language modes.
private let defaults9CallSites = #"""
	import Defaults
	import Foundation

	extension Defaults.Keys {
		static let isUnicornMode = Key<Bool>("isUnicornMode", default: false)
		static let key1 = Key<Int>("key1", default: 0)
		static let key2 = Key<Int>("key2", default: 0)
		static let someKey = Key<Bool>("someKey", default: false)
	}

	// The README's "Control propagation of change events".
	func propagation() {
		let observer = Defaults.observe(keys: .key1, .key2) {
			Defaults.withoutPropagation {
				Defaults[.key1] = 11
			}
			Defaults[.someKey] = true
		}
		observer.invalidate()
	}

	// The README's "Observe changes to a key".
	func updates() {
		Task {
			for await value in Defaults.updates(.isUnicornMode) {
				print("Value:", value)
			}
		}
	}

	// An app's controller: main-actor state changed from the handler.
	@MainActor
	final class UnicornController {
		var isUnicornMode = false
		var refreshes = 0
		@Default(.key1) var counter

		init() {
			Defaults.observe(.isUnicornMode) { [unowned self] change in
				self.isUnicornMode = change.newValue
			}
			.tieToLifetime(of: self)

			let observation = Defaults.observe(.isUnicornMode, options: [.initial, .prior]) { change in
				print(change.oldValue, change.newValue, change.isPrior)
			}
			observation.removeLifetimeTie()
			observation.invalidate()

			Defaults.observe(keys: .key1, .key2, options: []) { [weak self] in
				self?.refreshes += 1
			}
			.tieToLifetime(of: self)

			_ = $counter.observe { [weak self] change in
				self?.refreshes = change.newValue
			}
		}
	}

	// A service actor.
	actor UnicornService {
		var changes = 0
		var observation: (any Defaults.Observation)?

		func start() {
			observation = Defaults.observe(.key2) { _ in
				self.changes += 1
			}
		}
	}

	// Nonisolated code with a handler that is safe anywhere.
	func log() -> some Defaults.Observation {
		Defaults.observe(.key1, options: []) { change in
			print("key1 is now", change.newValue)
		}
	}
	"""#

@Suite("Defaults 9 observation call sites compile in Swift 5 and Swift 6 modes")
struct ObserveCallSitesCompileTests {
	@Test(arguments: ["5", "6"])
	func callSitesTypeCheck(languageMode: String) throws {
		let compiler = try BuildModules.typecheck(defaults9CallSites, languageMode: languageMode)
		#expect(compiler.status == 0, "\(compiler.errorOutput)")
	}
}
