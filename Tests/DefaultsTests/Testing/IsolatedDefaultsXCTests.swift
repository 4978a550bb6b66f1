import DefaultsTesting
import Foundation
import XCTest
@testable import Defaults

extension Defaults.Keys {
	fileprivate static let xcVolume = Key<Double>("xcIsolatedVolume", default: 0.5)
}

/// The XCTest variant: every method, with its set-up, runs with fresh in-memory copies.
final class IsolatedDefaultsTestCaseTests: IsolatedDefaultsTestCase {
	override var isolatedDefaults: IsolatedDefaults {
		IsolatedDefaults(["xcIsolatedVolume": 0.8])
	}

	private var volumeAtSetUp: Double?

	override func setUp() {
		super.setUp()
		volumeAtSetUp = Defaults[.xcVolume]
		Defaults[.xcVolume] += 0.1
	}

	// Both methods write; each starts from the given value, whichever ran first.
	func testStartsFromTheGivenValuesWithSetUpIsolatedToo() {
		XCTAssertEqual(volumeAtSetUp, 0.8)
		XCTAssertEqual(Defaults[.xcVolume], 0.9, accuracy: 1e-9)
		Defaults[.xcVolume] = 0.1
	}

	func testAnotherMethodGetsFreshCopies() {
		XCTAssertEqual(volumeAtSetUp, 0.8)
		Defaults[.xcVolume] = 0.2
		XCTAssertEqual(Defaults[.xcVolume], 0.2)
	}

	func testWritesNeverReachTheRealSuite() {
		Defaults[.xcVolume] = 0.3
		let real = Locked<Double?>(nil)
		let done = DispatchSemaphore(value: 0)
		Thread {
			real.withLock { $0 = Defaults[.xcVolume] }
			done.signal()
		}.start()
		done.wait()
		XCTAssertEqual(real.withLock { $0 }, 0.5)
	}

	func testAsyncMethodsAreIsolated() async {
		XCTAssertEqual(Defaults[.xcVolume], 0.9, accuracy: 1e-9)
		let fromTask = await Task { Defaults[.xcVolume] }.value
		XCTAssertEqual(fromTask, 0.9, accuracy: 1e-9)
	}
}

/// The function for a single XCTest method.
final class WithIsolatedDefaultsXCTests: XCTestCase {
	func testWithIsolatedDefaults() {
		withIsolatedDefaults(["xcIsolatedVolume": 0.7]) {
			XCTAssertEqual(Defaults[.xcVolume], 0.7)
			Defaults[.xcVolume] = 0.6
		}

		XCTAssertEqual(Defaults[.xcVolume], 0.5)
	}
}
