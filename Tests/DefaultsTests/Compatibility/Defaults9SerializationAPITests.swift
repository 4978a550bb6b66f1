import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Code written for Defaults 9 against API this library once lacked.
@Suite("Defaults 9 API: _DefaultsOptionalProtocol and AnySerializable.set(_:type:)")
struct Defaults9SerializationAPITests {
	@Test func genericCodeCanConstrainToOptionalValues() {
		let suite = TestSuite()
		let optional = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		let any = Defaults.Key<Defaults.AnySerializable>(suite.keyName(), default: nil, suite: suite.defaults)

		#expect(isUnset(optional))
		#expect(isUnset(any))

		Defaults[optional] = "a"
		Defaults[any] = 1

		#expect(!isUnset(optional))
		#expect(!isUnset(any))
		#expect((nil as Int?)._defaults_isNil)
		#expect(!(Optional(0))._defaults_isNil)
		#expect((nil as Defaults.AnySerializable)._defaults_isNil)
	}

	@Test func setWithATypeStoresTheValueAsThatType() {
		var any: Defaults.AnySerializable = "unicorn"

		any.set(1, type: Double.self)
		#expect(any.storage == .double(1))
		#expect(any.get(Double.self) == 1)

		any.set(2, type: Int8.self)
		#expect(any.get(Int8.self) == 2)

		any.set(nil, type: String?.self)
		#expect(any._defaults_isNil)
	}

	@Test func setWithATypeWritesThroughAKey() {
		let suite = TestSuite()
		let key = Defaults.Key<Defaults.AnySerializable>(suite.keyName(), default: 0, suite: suite.defaults)

		Defaults[key].set(0.5, type: Float.self)

		#expect(Defaults[key].storage == .float(0.5))
		#expect(Defaults[key].get(Float.self) == 0.5)
	}

	/// Generic code over optional keys, as Defaults 9 users write it.
	private func isUnset<Value: _DefaultsOptionalProtocol>(_ key: Defaults.Key<Value>) -> Bool {
		Defaults[key]._defaults_isNil
	}
}
