#if os(Linux)
import DefaultsTestSupport
import Testing
@testable import Defaults

/// Listening that failed stays failed: a store asking to hear changes then is told it will not, and loads again instead.
@Suite("Secret Service signals after a failure")
struct SecretServiceSignalsFailureTests {
	@Test("listening that failed adds no listener and says so", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func listeningThatFailedSaysSo() {
		// An instance of its own: the process's shared listener is left alone.
		let signals = SecretServiceSignals()
		signals.fail("the session bus does not answer")
		#expect(!signals.listen {}, "a listener that would never be called")
		#expect(signals.failure == "the session bus does not answer")
	}
}
#endif
