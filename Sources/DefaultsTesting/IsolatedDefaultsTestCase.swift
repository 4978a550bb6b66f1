#if canImport(XCTest)
import Defaults
import XCTest

/**
An XCTest case whose every test method, with its `setUp` and `tearDown`,
runs with private in-memory preferences: the XCTest equivalent of
`@Suite(.isolatedDefaults)`.

Every suite the test touches starts empty, or with ``isolatedDefaults``'s
values, nothing reaches a file, and each test method gets fresh copies.
See ``IsolatedDefaults`` for where isolation reaches: the test method's
thread and the tasks it starts with `Task { }`, not `Task.detached`, other
threads or dispatch queues.

```swift
import XCTest

final class PlayerTests: IsolatedDefaultsTestCase {
	override var isolatedDefaults: IsolatedDefaults {
		IsolatedDefaults(["volume": 0.8])
	}

	func testStartsLoud() {
		XCTAssertEqual(Defaults[.volume], 0.8)
		Defaults[.volume] = 0 // this test method only
	}
}
```
*/
open class IsolatedDefaultsTestCase: XCTestCase {
	/// The values every test method starts with; empty unless a subclass overrides it.
	open var isolatedDefaults: IsolatedDefaults {
		IsolatedDefaults()
	}

	/// Runs the test method, with its set-up and tear-down, isolated.
	override open func invokeTest() {
		isolatedDefaults.run {
			super.invokeTest()
		}
	}
}
#endif
