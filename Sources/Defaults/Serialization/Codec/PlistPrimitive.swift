import Foundation

/// A natively stored type: written as one property-list scalar, read back leniently.
protocol PlistPrimitive: PlistCodecProviding {
	/// The object handed to `UserDefaults.set`.
	var plistObject: Any { get }

	/// Reads the value from whatever shape Foundation returned, or `nil` if it is another kind.
	init?(plistObject: Any)
}

extension PlistPrimitive {
	static var plistCodec: PlistCodec<Self> {
		PlistCodec(
			encode: { value in .object(value.plistObject) },
			decode: { object throws(SerializationError) in
				guard let value = Self(plistObject: object) else {
					throw .mismatch(object, expected: Self.self)
				}

				return value
			},
			// Every primitive is a value type: what a read returns cannot be changed behind the next read's back.
			decodesToValues: true
		)
	}
}

/**
A primitive Foundation hands back as exactly its own Swift type, so reading
it is one cast, and an array of it can be read with a single cast of the array.
*/
protocol PlistExactPrimitive: PlistPrimitive {}

extension PlistExactPrimitive {
	var plistObject: Any { self }

	init?(plistObject: Any) {
		guard let value = plistObject as? Self else {
			return nil
		}

		self = value
	}
}

/// Integers are stored as `Int` when they fit, so raw `integer(forKey:)` reads them.
protocol PlistInteger: PlistPrimitive, FixedWidthInteger {}

extension PlistInteger {
	var plistObject: Any {
		if let int = Int(exactly: self) {
			return int
		}

		return UInt64(self)
	}

	init?(plistObject: Any) {
		guard let value = NumericCoercion.integer(plistObject, as: Self.self) else {
			return nil
		}

		self = value
	}
}

extension Int: PlistInteger {}
extension Int8: PlistInteger {}
extension Int16: PlistInteger {}
extension Int32: PlistInteger {}
extension Int64: PlistInteger {}
extension UInt: PlistInteger {}
extension UInt8: PlistInteger {}
extension UInt16: PlistInteger {}
extension UInt32: PlistInteger {}
extension UInt64: PlistInteger {}

extension Bool: PlistPrimitive {
	var plistObject: Any { self }

	init?(plistObject: Any) {
		guard let value = NumericCoercion.bool(plistObject) else {
			return nil
		}

		self = value
	}
}

extension Double: PlistPrimitive {
	var plistObject: Any { self }

	init?(plistObject: Any) {
		guard let value = NumericCoercion.double(plistObject) else {
			return nil
		}

		self = value
	}
}

extension Float: PlistPrimitive {
	var plistObject: Any { self }

	init?(plistObject: Any) {
		guard let value = NumericCoercion.float(plistObject) else {
			return nil
		}

		self = value
	}
}

extension CGFloat: PlistPrimitive {
	var plistObject: Any { Double(self) }

	init?(plistObject: Any) {
		guard let value = NumericCoercion.double(plistObject) else {
			return nil
		}

		self.init(value)
	}
}

extension String: PlistExactPrimitive {}

extension Data: PlistExactPrimitive {}

extension Date: PlistExactPrimitive {}
