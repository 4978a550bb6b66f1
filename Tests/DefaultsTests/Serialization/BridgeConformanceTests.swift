import Foundation
import Testing
@testable import Defaults

private struct LossyBridge: Defaults.Bridge {
	typealias Value = Int
	typealias Serializable = String

	func serialize(_ value: Int?) -> String? {
		value.map { String($0 / 10 * 10) }
	}

	func deserialize(_ object: String?) -> Int? {
		object.flatMap(Int.init)
	}
}

private struct UnstorableOutputBridge: Defaults.Bridge {
	typealias Value = Int
	typealias Serializable = Any

	func serialize(_ value: Int?) -> Any? {
		value.map { _ in NSObject() }
	}

	func deserialize(_ object: Any?) -> Int? {
		nil
	}
}

@Suite("Bridge conformance check")
struct BridgeConformanceTests {
	@Test func builtInBridgesConform() {
		#expect(Defaults.bridgeViolations(of: SamplePersonBridge(), roundTripping: [SamplePerson(name: "Ada", age: 36)]).isEmpty)
		#expect(Defaults.bridgeViolations(of: Defaults.URLBridge(), roundTripping: [URL(string: "https://a.b/c?d#e")!]).isEmpty)
		#expect(Defaults.bridgeViolations(of: Defaults.UUIDBridge(), roundTripping: [UUID()]).isEmpty)
		#expect(Defaults.bridgeViolations(of: Defaults.TopLevelCodableBridge<SampleTime>(), roundTripping: [SampleTime(hour: 1, minute: 2)]).isEmpty)
		#expect(Defaults.bridgeViolations(of: Defaults.ArrayBridge<URL>(), roundTripping: [[URL(string: "https://a.b")!]]).isEmpty)
		#expect(Defaults.bridgeViolations(of: Defaults.DictionaryBridge<Int, UUID>(), roundTripping: [[1: UUID()]]).isEmpty)
		#expect(Defaults.bridgeViolations(of: Defaults.RangeBridge<ClosedRange<Int>>(), roundTripping: [1...3]).isEmpty)
		#expect(Defaults.bridgeViolations(of: Defaults.NSSecureCodingBridge<SampleShape>(), roundTripping: [SampleShape(sides: 1, label: "l")]).isEmpty)
		#expect(Defaults.bridgeViolations(of: Defaults.AnyBridge(), roundTripping: [1, "x", [1, 2]]).isEmpty)
	}

	@Test func lossyBridgeIsCaught() {
		let violations = Defaults.bridgeViolations(of: LossyBridge(), roundTripping: [10, 15])
		#expect(violations == ["15 came back as 10"])
	}

	@Test func unstorableOutputIsCaught() {
		let violations = Defaults.bridgeViolations(of: UnstorableOutputBridge(), roundTripping: [1])
		#expect(violations.count == 1)
		#expect(violations.first?.contains("cannot be stored") == true)
	}
}
