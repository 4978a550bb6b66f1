import Foundation

/// What an ``ObservationHandle`` hands the engine's raw changes to.
protocol ChangeReceiver: Sendable {
	/// Called on the writing thread, outside the engine's lock, for each change.
	func receive(_ change: RawChange)

	/// Called once when the observation is invalidated: drop whatever is still queued.
	func stop()
}
