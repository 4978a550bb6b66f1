import Foundation

/**
Checks a keyed archive before it is handed to `NSKeyedUnarchiver`.

On Linux, unarchiving data whose root object is of another class, or that
names a class this process does not have, ends the process. Reading the
archive as a plain property list first turns those cases into a `false`.
*/
enum KeyedArchiveInspector {
	static func rootObject(of archive: Data, isA expected: AnyClass) -> Bool {
		guard
			let plist = try? PropertyListSerialization.propertyList(from: archive, format: nil),
			let root = StoredContainer.dictionary(plist),
			root["$archiver"] as? String == "NSKeyedArchiver",
			let objects = root["$objects"].flatMap(StoredContainer.array),
			let top = root["$top"].flatMap(StoredContainer.dictionary),
			let rootObject = top["root"].flatMap({ object(at: $0, in: objects) }).flatMap(StoredContainer.dictionary),
			let classDescription = rootObject["$class"].flatMap({ object(at: $0, in: objects) }).flatMap(StoredContainer.dictionary),
			let classChain = classDescription["$classes"].flatMap(StoredContainer.array) as? [String]
		else {
			return false
		}

		return classChain.contains(NSStringFromClass(expected)) && namesOnlyKnownClasses(objects)
	}

	private static func namesOnlyKnownClasses(_ objects: [Any]) -> Bool {
		objects.allSatisfy { object in
			guard let className = StoredContainer.dictionary(object)?["$classname"] as? String else {
				return true
			}

			return NSClassFromString(className) != nil
		}
	}

	private static func object(at reference: Any, in objects: [Any]) -> Any? {
		guard let index = uidValue(reference), objects.indices.contains(index) else {
			return nil
		}

		return objects[index]
	}

	/// A UID reads as `["CF$UID": n]` on Apple platforms and as an opaque object with a `value` on Linux.
	private static func uidValue(_ reference: Any) -> Int? {
		if let index = StoredContainer.dictionary(reference)?["CF$UID"] {
			return NumericCoercion.integer(index, as: Int.self)
		}

		let value = Mirror(reflecting: reference).children.first { $0.label == "value" }?.value
		return value.flatMap { NumericCoercion.integer($0, as: Int.self) }
	}
}
