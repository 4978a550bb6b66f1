import Foundation

/// A property list as a tree the fuzzers can edit and write back, keyed-archive references included.
indirect enum PlistNode {
	case string(String)
	case integer(Int)
	case real(Double)
	case bool(Bool)
	case data(Data)
	case date(Date)
	case uid(Int)
	case array([PlistNode])
	case dictionary([String: PlistNode])

	init(_ object: Any) {
		switch object {
		case let value as String:
			self = .string(value)
		case let value as Bool where type(of: object) == Bool.self:
			self = .bool(value)
		case let value as Int:
			self = .integer(value)
		case let value as Double:
			self = .real(value)
		case let value as Data:
			self = .data(value)
		case let value as Date:
			self = .date(value)
		case let value as [Any]:
			self = .array(value.map(PlistNode.init))
		case let value as [String: Any]:
			self = .dictionary(value.mapValues(PlistNode.init))
		default:
			let index = Mirror(reflecting: object).children.first { $0.label == "value" }?.value
			if let index = index as? UInt32 {
				self = .uid(Int(index))
			} else if let number = object as? NSNumber {
				self = .real(number.doubleValue)
			} else {
				self = .string(String(describing: object))
			}
		}
	}

	/// Paths (dictionary keys, then an optional array index) to every reference inside this object.
	var referencePaths: [(key: String, index: Int?)] {
		guard case .dictionary(let fields) = self else {
			return []
		}

		return fields.sorted { $0.key < $1.key }.flatMap { key, value -> [(key: String, index: Int?)] in
			switch value {
			case .uid:
				return [(key, nil)]
			case .array(let elements):
				return elements.indices.compactMap { index in
					if case .uid = elements[index] { (key, index) } else { nil }
				}
			default:
				return []
			}
		}
	}

	mutating func replace(at path: (key: String, index: Int?), with node: PlistNode) {
		guard case .dictionary(var fields) = self else {
			return
		}

		if let index = path.index, case .array(var elements)? = fields[path.key], elements.indices.contains(index) {
			elements[index] = node
			fields[path.key] = .array(elements)
		} else {
			fields[path.key] = node
		}

		self = .dictionary(fields)
	}

	/// Sets `key` (or a random existing field) of a dictionary to `node`.
	mutating func setField(_ key: String?, to node: PlistNode, using random: inout FuzzRandom) {
		guard case .dictionary(var fields) = self else {
			return
		}

		let keys = fields.keys.sorted()
		let chosen = key ?? (keys.isEmpty ? "text" : keys[random.below(keys.count)])
		fields[chosen] = node
		self = .dictionary(fields)
	}

	mutating func removeRandomField(using random: inout FuzzRandom) {
		guard case .dictionary(var fields) = self, !fields.isEmpty else {
			return
		}

		let keys = fields.keys.sorted()
		fields[keys[random.below(keys.count)]] = nil
		self = .dictionary(fields)
	}

	var xmlDocument: String {
		"""
		<?xml version="1.0" encoding="UTF-8"?>
		<plist version="1.0">\(xml)</plist>
		"""
	}

	private var xml: String {
		switch self {
		case .string(let value):
			return "<string>\(Self.escaped(value))</string>"
		case .integer(let value):
			return "<integer>\(value)</integer>"
		case .real(let value):
			return "<real>\(value)</real>"
		case .bool(let value):
			return value ? "<true/>" : "<false/>"
		case .data(let value):
			return "<data>\(value.base64EncodedString())</data>"
		case .date(let value):
			return "<date>\(ISO8601DateFormatter().string(from: value))</date>"
		case .uid(let value):
			return "<dict><key>CF$UID</key><integer>\(value)</integer></dict>"
		case .array(let elements):
			return "<array>\(elements.map(\.xml).joined())</array>"
		case .dictionary(let fields):
			return "<dict>\(fields.sorted { $0.key < $1.key }.map { "<key>\(Self.escaped($0.key))</key>\($0.value.xml)" }.joined())</dict>"
		}
	}

	private static func escaped(_ text: String) -> String {
		text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
	}
}
