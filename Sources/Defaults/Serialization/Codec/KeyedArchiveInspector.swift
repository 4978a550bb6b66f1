import Foundation

/**
Checks a whole keyed archive before it is handed to `NSKeyedUnarchiver`.

Foundation on Linux ends the process on malformed archives instead of
failing, so an archive is unarchived only when nothing in it can reach a trap:

- the archive is a property list without the types whose parsing can crash
  (``BinaryPropertyListCheck``), names `NSKeyedArchiver`, version 100000, and its root is
  an object of the expected class (or a subclass);
- every reference of every object reachable from the root points inside
  `$objects`, and every such object is a plain value (string, number, data,
  date) or an object whose `$class` leads to a class description;
- every class named there resolves, and is either one of the few Foundation
  classes whose decoding is checked here (with the layout its `init(coder:)`
  force-casts) or a class that supports secure coding;
- no object reachable from the root refers back to itself (Foundation decodes
  references depth first and would recurse until the stack overflows), and
  nesting is at most ``maximumDepth`` objects deep.

Which class an `init(coder:)` asks for at each key is the application's code
and cannot be read from the archive, so the unarchiving that follows
(``KeyedArchiveCoding``) never lets a class mismatch reach Foundation's trap.
*/
enum KeyedArchiveInspector {
	/// How many objects deep an archive may nest: each level costs several stack frames of Foundation's recursive decoding.
	static let maximumDepth = 64

	/// Why `archive` may not be unarchived as `expected`, or `nil` when it may.
	static func problem(in archive: Data, expected: AnyClass) -> String? {
		do throws(Rejection) {
			var walk = try Walk(archive: archive, expected: expected)
			try walk.run()
			return nil
		} catch {
			return error.reason
		}
	}

	struct Rejection: Error {
		let reason: String

		init(_ reason: String) {
			self.reason = reason
		}
	}

	private struct Walk {
		let objects: [Any]
		let rootReference: Int
		let expected: AnyClass
		/// Class descriptions already checked, by index.
		var admittedClasses: [Int: (AnyClass, KeyedArchiveClasses.Admission)] = [:]

		init(archive: Data, expected: AnyClass) throws(Rejection) {
			guard
				BinaryPropertyListCheck.holdsOnlyArchiveTypes(archive),
				let plist = try? PropertyListSerialization.propertyList(from: archive, format: nil),
				let top = StoredContainer.dictionary(plist)
			else {
				throw Rejection("not a property list")
			}

			guard top["$archiver"] as? String == "NSKeyedArchiver", NumericCoercion.integer(top["$version"] as Any, as: Int.self) == 100_000 else {
				throw Rejection("not an NSKeyedArchiver archive of version 100000")
			}

			guard
				let objects = top["$objects"].flatMap(StoredContainer.array),
				let roots = top["$top"].flatMap(StoredContainer.dictionary),
				let root = roots["root"].flatMap(KeyedArchiveInspector.reference),
				objects.indices.contains(root)
			else {
				throw Rejection("no root object")
			}

			self.objects = objects
			self.rootReference = root
			self.expected = expected
		}

		mutating func run() throws(Rejection) {
			guard let (rootClass, _) = try container(at: rootReference) else {
				throw Rejection("the root is not an object")
			}

			guard KeyedArchiveClasses.isClass(rootClass, kindOf: expected) else {
				throw Rejection("the root object is \(TypeName.withArticle(rootClass)), not \(TypeName.withArticle(expected))")
			}

			try visitGraph()
		}

		/// Depth-first over the objects reachable from the root, without recursion (the archive decides the depth).
		private mutating func visitGraph() throws(Rejection) {
			enum State { case inProgress, done }
			var states: [Int: State] = [rootReference: .inProgress]
			var stack: [(index: Int, children: [Int], next: Int)] = [(rootReference, try children(of: rootReference), 0)]

			while let last = stack.indices.last {
				let (index, references, next) = stack[last]
				guard next < references.count else {
					states[index] = .done
					stack.removeLast()
					continue
				}

				stack[last].next += 1
				let child = references[next]
				switch states[child] {
				case .inProgress:
					throw Rejection("object \(child) refers back to itself")
				case .done:
					continue
				case nil:
					guard stack.count < maximumDepth else {
						throw Rejection("objects nest deeper than \(maximumDepth)")
					}

					states[child] = .inProgress
					stack.append((child, try children(of: child), 0))
				}
			}
		}

		/// The objects `index` refers to that are themselves objects (plain values end the walk there).
		private mutating func children(of index: Int) throws(Rejection) -> [Int] {
			guard let (_, admission) = try container(at: index), let fields = StoredContainer.dictionary(objects[index]) else {
				return []
			}

			if case .foundation(let layout) = admission {
				try check(fields, of: index, against: layout)
			}

			var children: [Int] = []
			for (key, value) in fields where key != "$class" {
				for reference in references(in: value) {
					guard objects.indices.contains(reference) else {
						throw Rejection("object \(index) refers to \(reference), outside the archive")
					}

					if try container(at: reference) != nil {
						children.append(reference)
					}
				}
			}

			return children
		}

		/// The class of the object at `index`, or `nil` for a plain value; throws for anything Foundation might trap on.
		private mutating func container(at index: Int) throws(Rejection) -> (AnyClass, KeyedArchiveClasses.Admission)? {
			let object = objects[index]
			guard let fields = StoredContainer.dictionary(object) else {
				guard isPlainValue(object) else {
					throw Rejection("object \(index) is a \(type(of: object)), which an archive does not hold")
				}

				return nil
			}

			guard let classReference = fields["$class"].flatMap(KeyedArchiveInspector.reference) else {
				throw Rejection("object \(index) has no class")
			}

			if let admitted = admittedClasses[classReference] {
				return admitted
			}

			guard
				objects.indices.contains(classReference),
				let description = StoredContainer.dictionary(objects[classReference]),
				let className = description["$classname"] as? String
			else {
				throw Rejection("the class of object \(index) is not a class description")
			}

			guard let admitted = KeyedArchiveClasses.admission(ofClassNamed: className) else {
				throw Rejection("the archive names \(className), which is not a known class that supports secure coding")
			}

			admittedClasses[classReference] = admitted
			return admitted
		}

		private func isPlainValue(_ object: Any) -> Bool {
			if KeyedArchiveInspector.reference(object) != nil {
				return false
			}

			return object is String || object is Data || object is Date || object is Bool || object is NSNumber
				|| object is any BinaryInteger || object is any BinaryFloatingPoint
		}

		private func check(_ fields: [String: Any], of index: Int, against layout: KeyedArchiveClasses.FoundationLayout) throws(Rejection) {
			switch layout {
			case .string:
				guard fields["NS.string"] is String else {
					throw Rejection("string object \(index) holds no string")
				}
			case .objects:
				if let objectsField = fields["NS.objects"] {
					_ = try referenceList(objectsField, of: index)
				}
			case .keysAndObjects:
				let keys = try referenceList(fields["NS.keys"] ?? [Any](), of: index)
				let values = try referenceList(fields["NS.objects"] ?? [Any](), of: index)
				guard keys.count == values.count else {
					throw Rejection("dictionary object \(index) has \(keys.count) keys for \(values.count) values")
				}
			case .scalars:
				break
			}
		}

		/// A Foundation collection's references: all of them references to existing, non-null objects.
		private func referenceList(_ field: Any, of index: Int) throws(Rejection) -> [Int] {
			guard let list = StoredContainer.array(field) else {
				throw Rejection("collection object \(index) holds no list")
			}

			var references: [Int] = []
			for element in list {
				guard
					let reference = KeyedArchiveInspector.reference(element),
					objects.indices.contains(reference),
					objects[reference] as? String != "$null"
				else {
					throw Rejection("collection object \(index) holds something other than a reference to an object")
				}

				references.append(reference)
			}

			return references
		}

		/// The references a field holds: itself, or the elements of a list of references.
		private func references(in value: Any) -> [Int] {
			if let reference = KeyedArchiveInspector.reference(value) {
				return [reference]
			}

			return StoredContainer.array(value)?.compactMap(KeyedArchiveInspector.reference) ?? []
		}
	}

	/// A UID: an opaque object with a `value` on Linux, a `CFKeyedArchiverUID` (or `["CF$UID": n]`) on Apple platforms.
	static func reference(_ value: Any) -> Int? {
		if let dictionary = value as? [String: Any], dictionary.count == 1, let index = dictionary["CF$UID"] {
			return NumericCoercion.integer(index, as: Int.self)
		}

		guard type(of: value) is AnyClass, String(describing: type(of: value)).hasSuffix("KeyedArchiverUID") else {
			return nil
		}

		if let index = Mirror(reflecting: value).children.first(where: { $0.label == "value" })?.value {
			return NumericCoercion.integer(index, as: Int.self)
		}

		// Apple's `CFKeyedArchiverUID` shows its index only in its description: `<CFKeyedArchiverUID 0x…>{value = 12}`.
		let description = String(describing: value)
		guard let start = description.range(of: "{value = "), let end = description[start.upperBound...].firstIndex(of: "}") else {
			return nil
		}

		return Int(description[start.upperBound..<end])
	}
}
