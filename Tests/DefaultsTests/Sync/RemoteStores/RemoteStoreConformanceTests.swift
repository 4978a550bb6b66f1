import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

@Suite("Remote store conformance")
struct RemoteStoreConformanceTests {
	@Test("the in-memory store passes the remote-store conformance check")
	func inMemory() async {
		let store = InMemoryRemoteStore()
		let violations = await RemoteStoreConformance.violations(of: store, peer: store)
		#expect(violations.isEmpty, "\(violations)")
	}

	@Test("the shared-folder store passes the remote-store conformance check")
	func sharedFolder() async throws {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-conformance-\(UUID().uuidString)")
		defer { try? FileManager.default.removeItem(at: folder) }
		let laptop = try Defaults.SharedFolderRemoteStore(folder: folder, device: "laptop")
		let desktop = try Defaults.SharedFolderRemoteStore(folder: folder, device: "desktop")
		let violations = await RemoteStoreConformance.violations(of: laptop, peer: desktop)
		#expect(violations.isEmpty, "\(violations)")
	}
}
