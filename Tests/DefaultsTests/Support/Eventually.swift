import Foundation

/// Waits, without blocking the caller's actor, until `condition` holds or `timeout` passes.
///
/// The limit only matters when the test fails: it is long, because on a loaded 2-core machine
/// the tests that block their threads (waiting for child processes) can hold back the task that
/// makes the change for many seconds.
func eventually(
	isolation: isolated (any Actor)? = #isolation,
	timeout: Duration = .seconds(60),
	_ condition: () -> Bool
) async -> Bool {
	let deadline = ContinuousClock.now + timeout
	while !condition() {
		if ContinuousClock.now >= deadline {
			return false
		}

		try? await Task.sleep(for: .milliseconds(2))
	}

	return true
}
