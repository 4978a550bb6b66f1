import Foundation

/// Collects values from callbacks that may run on any thread.
public final class Recorder<Element>: @unchecked Sendable {
	public init() {}

	private let lock = NSLock()
	private var storage: [Element] = []

	public func append(_ element: Element) {
		lock.withLock { storage.append(element) }
	}

	public var values: [Element] {
		lock.withLock { storage }
	}

	public var count: Int {
		lock.withLock { storage.count }
	}
}
