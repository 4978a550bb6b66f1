import Foundation

/**
A version of a suite file as this process last read or wrote it: enough to
tell, later, whether anyone has written the file since.

The identity (device, inode, size, modification time) settles it, except in
one case: file systems stamp modification times from a coarse clock (a few
milliseconds), so an in-place write (Foundation's `synchronize()`) of the
same size within the same tick leaves the identity as it was. While the
recorded modification time is that close to when it was recorded, the
contents' digest decides instead.
*/
struct FileVersion: Sendable {
	let identity: FileIdentity?
	private let recordedAt: timespec
	private let digest: Int?

	/// Writes within this much of each other may share a modification time.
	private static let coarseClockResolution: Int = 100_000_000

	init(identity: FileIdentity?, contents: Data?) {
		self.identity = identity
		var now = timespec()
		clock_gettime(CLOCK_REALTIME, &now)
		recordedAt = now
		digest = contents.map(Self.digest)
	}

	/// Whether the file, whose identity is now `current`, is still this version; `contents` is read only when the identity cannot tell.
	func isCurrent(_ current: FileIdentity?, contents: () throws(Defaults.PersistenceError) -> Data?) throws(Defaults.PersistenceError) -> Bool {
		guard current == identity else {
			return false
		}

		guard let identity, isAmbiguous(identity) else {
			return true
		}

		guard let digest, let data = try contents() else {
			return false
		}

		return Self.digest(data) == digest
	}

	private func isAmbiguous(_ identity: FileIdentity) -> Bool {
		let recorded = Int(recordedAt.tv_sec) * 1_000_000_000 + Int(recordedAt.tv_nsec)
		let modified = Int(identity.modified.tv_sec) * 1_000_000_000 + Int(identity.modified.tv_nsec)
		return recorded - modified < Self.coarseClockResolution
	}

	/// A digest of all of `data` (for comparisons within this process: `Hasher` is seeded per process).
	static func digest(_ data: Data) -> Int {
		var hasher = Hasher()
		hasher.combine(data.count)
		data.withUnsafeBytes { hasher.combine(bytes: $0) }
		return hasher.finalize()
	}
}
