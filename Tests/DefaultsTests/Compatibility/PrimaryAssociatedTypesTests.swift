import Defaults
import Testing

/// Code written for Defaults 9.0.9, which constrains the serialization protocols by their primary associated types; it only has to compile.
@Suite("Defaults 9.0.9 API: primary associated types of the serialization protocols")
struct PrimaryAssociatedTypesTests {
	@Test func serializableIsConstrainedByItsBridge() {
		let person: some Defaults.Serializable<SamplePersonBridge> = SamplePerson(name: "Ada", age: 36)
		#expect(type(of: person).bridge.serialize(SamplePerson(name: "Ada", age: 36)) == ["name": "Ada", "age": "36"])
	}

	@Test func bridgeIsConstrainedByValueThenSerializable() {
		let bridge: any Defaults.Bridge<SamplePerson, [String: String]> = SamplePersonBridge()
		#expect(bridge.deserialize(["name": "Ada", "age": "36"]) == SamplePerson(name: "Ada", age: 36))
	}

	@Test func collectionsAreConstrainedByTheirElement() {
		let bag: some Defaults.CollectionSerializable<Int> = SampleBag([1, 2])
		let set: some Defaults.SetAlgebraSerializable<String> = SampleSetBag(["a"])
		#expect(Array(bag) == [1, 2])
		#expect(set.toArray() == ["a"])
	}

	@Test func rangesAreConstrainedByTheirBound() {
		#expect(width(of: 2...5) == 3)
		#expect(width(of: 2..<5) == 3)
	}

	private func width(of range: some Defaults.Range<Int>) -> Int {
		range.upperBound - range.lowerBound
	}
}
