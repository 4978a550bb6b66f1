import Foundation

/// Keeps tied observations alive while their owners live.
enum LifetimeTies {
	static func retain(_ handle: ObservationHandle) {
		DefaultsSystem.lifetimeTies.withLock { $0[ObjectIdentifier(handle)] = handle }
		sweep()
	}

	static func release(_ handle: ObservationHandle) {
		_ = DefaultsSystem.lifetimeTies.withLock { $0.removeValue(forKey: ObjectIdentifier(handle)) }
	}

	/// Stops the observations whose owners have been deallocated.
	static func sweep() {
		let orphaned = DefaultsSystem.lifetimeTies.withLock { handles in
			handles.values.filter { !$0.isActive }
		}

		for handle in orphaned {
			handle.invalidate()
		}
	}
}
