import Foundation

/// Keeps tied observations alive while their owners live.
enum LifetimeTies {
	private static let handles = Locked<[ObjectIdentifier: ObservationHandle]>([:])

	static func retain(_ handle: ObservationHandle) {
		handles.withLock { $0[ObjectIdentifier(handle)] = handle }
		sweep()
	}

	static func release(_ handle: ObservationHandle) {
		_ = handles.withLock { $0.removeValue(forKey: ObjectIdentifier(handle)) }
	}

	/// Stops the observations whose owners have been deallocated.
	static func sweep() {
		let orphaned = handles.withLock { handles in
			handles.values.filter { !$0.isActive }
		}

		for handle in orphaned {
			handle.invalidate()
		}
	}
}
