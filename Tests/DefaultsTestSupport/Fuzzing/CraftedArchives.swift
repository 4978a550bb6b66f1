import Foundation

/// Hand-made malformed archives, one per way Foundation on Linux ends the process while unarchiving.
public enum CraftedArchives {
	public struct Case: Sendable {
		public let name: String
		public let subject: String
		public let archive: @Sendable () -> Data
	}

	public static let all: [Case] = [
		edit("an inner object of another class than asked for", FuzzNested.self) { objects, root in
			// `decodeObject(of: NSString.self, forKey: "title")` meets a FuzzLabel.
			objects[root] = objects[root].setting("title", to: objects[root].field("label")!)
		},
		edit("a reference cycle", FuzzLabel.self) { objects, root in
			objects[root] = objects[root].setting("text", to: .uid(root))
		},
		edit("a class reference to a plain value", FuzzLabel.self) { objects, root in
			objects[root] = objects[root].setting("$class", to: objects[root].field("text")!)
		},
		edit("a reference outside the archive", FuzzLabel.self) { objects, root in
			objects[root] = objects[root].setting("text", to: .uid(9_999))
		},
		edit("a class that does not exist", FuzzLabel.self) { objects, root in
			guard case .uid(let classIndex)? = objects[root].field("$class") else { return }
			objects[classIndex] = objects[classIndex].setting("$classname", to: .string("DefaultsTestSupport.Missing"))
		},
		edit("a string object without a string", FuzzLabel.self) { objects, root in
			objects.append(.dictionary(["$classname": .string("NSString"), "$classes": .array([.string("NSString"), .string("NSObject")])]))
			objects.append(.dictionary(["$class": .uid(objects.count - 1)]))
			objects[root] = objects[root].setting("text", to: .uid(objects.count - 1))
		},
		edit("a dictionary with fewer objects than keys", FuzzCollections.self) { objects, _ in
			for index in objects.indices {
				if case .array(let values)? = objects[index].field("NS.objects"), objects[index].field("NS.keys") != nil {
					objects[index] = objects[index].setting("NS.objects", to: .array(Array(values.dropLast())))
				}
			}
		},
		edit("objects nested 5,000 deep", FuzzLabel.self) { objects, root in
			objects.append(.dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])]))
			let arrayClass = objects.count - 1
			let first = objects.count
			for depth in 0..<5_000 {
				objects.append(.dictionary(["$class": .uid(arrayClass), "NS.objects": .array([.uid(first + depth + 1)])]))
			}
			objects.append(.string("bottom"))
			objects[root] = objects[root].setting("text", to: .uid(first))
		},
		Case(name: "a binary property list holding a set", subject: "FuzzCollections") {
			turningArraysIntoSets(ArchiveFuzzSubject.named("FuzzCollections")!.archive())
		},
	]

	/// The same binary plist with every array marked as a set (a type keyed archives never hold).
	private static func turningArraysIntoSets(_ archive: Data) -> Data {
		var bytes = [UInt8](archive)
		for offset in BinaryPropertyListOffsets.of(bytes) {
			if bytes[offset] >> 4 == 0xA {
				bytes[offset] = 0xC0 | (bytes[offset] & 0x0F)
			}
		}

		return Data(bytes)
	}

	private static func edit<Subject>(
		_ name: String,
		_: Subject.Type,
		_ change: @escaping @Sendable (_ objects: inout [PlistNode], _ root: Int) -> Void
	) -> Case {
		let subjectName = "\(Subject.self)"
		return Case(name: name, subject: subjectName) {
			let subject = ArchiveFuzzSubject.named(subjectName)!
			let plist = try! PropertyListSerialization.propertyList(from: subject.archive(), format: nil)
			guard
				case .dictionary(var top) = PlistNode(plist),
				case .array(var objects)? = top["$objects"],
				case .dictionary(let roots)? = top["$top"],
				case .uid(let root)? = roots["root"]
			else {
				fatalError("not a keyed archive")
			}

			change(&objects, root)
			top["$objects"] = .array(objects)
			let reparsed = try! PropertyListSerialization.propertyList(from: Data(PlistNode.dictionary(top).xmlDocument.utf8), format: nil)
			return try! PropertyListSerialization.data(fromPropertyList: reparsed, format: .binary, options: 0)
		}
	}
}

extension PlistNode {
	func field(_ key: String) -> PlistNode? {
		guard case .dictionary(let fields) = self else {
			return nil
		}

		return fields[key]
	}

	func setting(_ key: String, to value: PlistNode) -> PlistNode {
		guard case .dictionary(var fields) = self else {
			return self
		}

		fields[key] = value
		return .dictionary(fields)
	}
}
