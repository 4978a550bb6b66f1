import Foundation

/**
Turns a valid keyed archive into a malformed one, the way a corrupted or hostile
file would: references pointed elsewhere (out of range, at class descriptions,
back at an ancestor), values of other types, fields and objects removed or
swapped, classes renamed, and raw bytes flipped or cut.
*/
public enum ArchiveMutator {
	/// Trial `index` of a run with `seed`, from `archive`.
	public static func mutant(of archive: Data, seed: UInt64, index: Int) -> Data {
		var random = FuzzRandom(seed: seed, index: index)
		if random.chance(0.15) {
			return mutateBytes(archive, using: &random)
		}

		guard
			let plist = try? PropertyListSerialization.propertyList(from: archive, format: nil),
			case .dictionary(var top) = PlistNode(plist)
		else {
			return archive
		}

		for _ in 0...random.below(3) {
			mutate(&top, using: &random)
		}

		let xml = PlistNode.dictionary(top).xmlDocument
		guard
			let reparsed = try? PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil),
			let binary = try? PropertyListSerialization.data(fromPropertyList: reparsed, format: .binary, options: 0)
		else {
			return Data(xml.utf8)
		}

		return binary
	}

	private static let classNames = [
		"NSString", "NSMutableString", "NSArray", "NSDictionary", "NSSet", "NSData", "NSNumber", "NSDate", "NSUUID", "NSURL",
		"NSObject", "NSError", "NSNull", "NSKeyedArchiver", "DefaultsTestSupport.FuzzLabel", "DefaultsTestSupport.FuzzRecord",
		"DefaultsTestSupport.FuzzNested", "DefaultsTestSupport.FuzzCollections", "DefaultsTestSupport.Missing", "a.b.c", "",
		"_TtC4main4Type", "Foundation.NSString",
	]

	private static func mutateBytes(_ archive: Data, using random: inout FuzzRandom) -> Data {
		var bytes = [UInt8](archive)
		switch random.below(3) {
		case 0:
			bytes = Array(bytes.prefix(random.below(bytes.count)))
		default:
			for _ in 0...random.below(4) where !bytes.isEmpty {
				bytes[random.below(bytes.count)] = UInt8.random(in: 0...255, using: &random)
			}
		}

		return Data(bytes)
	}

	private static func mutate(_ top: inout [String: PlistNode], using random: inout FuzzRandom) {
		guard case .array(var objects)? = top["$objects"], !objects.isEmpty else {
			return
		}

		let count = objects.count
		let target = random.below(count)
		switch random.below(10) {
		case 0, 1:
			// Point one reference somewhere else, sometimes outside the archive.
			var references = objects.indices.flatMap { index in objects[index].referencePaths.map { (index, $0) } }
			references.shuffle(using: &random)
			if let (index, path) = references.first {
				let destination = random.chance(0.15) ? count + random.below(3) : random.below(count)
				objects[index].replace(at: path, with: .uid(destination))
			}
		case 2:
			// Make an object refer to itself or to the root (a cycle).
			objects[target].setField(random.chance(0.5) ? "text" : "label", to: .uid(random.chance(0.5) ? target : 1), using: &random)
		case 3:
			objects[target].setField(nil, to: randomValue(objectCount: count, using: &random), using: &random)
		case 4:
			objects[target].removeRandomField(using: &random)
		case 5:
			if case .dictionary(var fields) = objects[target], fields["$classname"] != nil {
				fields["$classname"] = .string(classNames[random.below(classNames.count)])
				objects[target] = .dictionary(fields)
			} else {
				objects[target] = randomValue(objectCount: count, using: &random)
			}
		case 6:
			objects[target] = objects[random.below(count)]
		case 7:
			objects.swapAt(target, random.below(count))
		case 8:
			objects.append(.dictionary(["$class": .uid(random.below(count)), "text": .uid(random.below(count + 1))]))
		default:
			switch random.below(3) {
			case 0:
				top["$version"] = randomValue(objectCount: count, using: &random)
			case 1:
				top["$top"] = .dictionary(["root": .uid(random.below(count + 1))])
			default:
				top["$archiver"] = .string(random.chance(0.5) ? "NSKeyedArchiver" : "Other")
			}
		}

		top["$objects"] = .array(objects)
	}

	static func randomValue(objectCount: Int, using random: inout FuzzRandom) -> PlistNode {
		switch random.below(9) {
		case 0:
			return .string(["", "$null", "x", "NSString", String(repeating: "é", count: 5)][random.below(5)])
		case 1:
			return .integer([0, 1, -1, Int.max, Int.min, 100_000, Int(Int32.max) + 1][random.below(7)])
		case 2:
			return .real([0.5, -1e300, 1e300, 3.0][random.below(4)])
		case 3:
			return .bool(random.chance(0.5))
		case 4:
			return .data(Data((0..<random.below(20)).map { _ in UInt8.random(in: 0...255, using: &random) }))
		case 5:
			return .date(Date(timeIntervalSinceReferenceDate: Double(random.below(1_000_000_000))))
		case 6:
			return .uid(random.below(objectCount + 2))
		case 7:
			return .array((0..<random.below(4)).map { _ in .uid(random.below(objectCount + 1)) })
		default:
			return .dictionary(["$class": .uid(random.below(objectCount)), "NS.string": .integer(1)])
		}
	}
}
