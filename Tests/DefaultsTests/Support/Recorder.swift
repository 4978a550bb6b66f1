import Foundation

/// Collects values from callbacks that may run on any thread.
final class Recorder<Element>: @unchecked Sendable {
	private let lock = NSLock()
	private var storage: [Element] = []

	func append(_ element: Element) {
		lock.withLock { storage.append(element) }
	}

	var values: [Element] {
		lock.withLock { storage }
	}

	var count: Int {
		lock.withLock { storage.count }
	}
}
