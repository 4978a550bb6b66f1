import Defaults
import Foundation

// The NSSecureCoding classes the archive fuzz mutates archives of. Top level and
// public so that a child process finds them by name when unarchiving.

/// One string field, decoded with `decodeObject(of: NSString.self, forKey:)` only.
public final class FuzzLabel: NSObject, NSSecureCoding, Defaults.Serializable {
	public static var supportsSecureCoding: Bool { true }
	public let text: String

	public init(text: String) {
		self.text = text
	}

	public init?(coder: NSCoder) {
		guard let text = coder.decodeObject(of: NSString.self, forKey: "text") as String? else {
			return nil
		}

		self.text = text
	}

	public func encode(with coder: NSCoder) {
		coder.encode(text, forKey: "text")
	}
}

/// Several fields of several kinds: objects, scalars, a date and a UUID.
public final class FuzzRecord: NSObject, NSSecureCoding, Defaults.Serializable {
	public static var supportsSecureCoding: Bool { true }
	public let name: String
	public let count: Int
	public let ratio: Double
	public let enabled: Bool
	public let created: Date
	public let identifier: UUID

	public init(name: String, count: Int, ratio: Double, enabled: Bool, created: Date, identifier: UUID) {
		self.name = name
		self.count = count
		self.ratio = ratio
		self.enabled = enabled
		self.created = created
		self.identifier = identifier
	}

	public init?(coder: NSCoder) {
		guard
			let name = coder.decodeObject(of: NSString.self, forKey: "name") as String?,
			let created = coder.decodeObject(of: NSDate.self, forKey: "created") as Date?,
			let identifier = coder.decodeObject(of: NSUUID.self, forKey: "identifier") as UUID?
		else {
			return nil
		}

		self.name = name
		count = coder.decodeInteger(forKey: "count")
		ratio = coder.decodeDouble(forKey: "ratio")
		enabled = coder.decodeBool(forKey: "enabled")
		self.created = created
		self.identifier = identifier
	}

	public func encode(with coder: NSCoder) {
		coder.encode(name, forKey: "name")
		coder.encode(count, forKey: "count")
		coder.encode(ratio, forKey: "ratio")
		coder.encode(enabled, forKey: "enabled")
		coder.encode(created as NSDate, forKey: "created")
		coder.encode(identifier as NSUUID, forKey: "identifier")
	}
}

/// Objects of other application classes inside, one of them optional.
public final class FuzzNested: NSObject, NSSecureCoding, Defaults.Serializable {
	public static var supportsSecureCoding: Bool { true }
	public let title: String
	public let label: FuzzLabel
	public let record: FuzzRecord?

	public init(title: String, label: FuzzLabel, record: FuzzRecord?) {
		self.title = title
		self.label = label
		self.record = record
	}

	public init?(coder: NSCoder) {
		guard
			let title = coder.decodeObject(of: NSString.self, forKey: "title") as String?,
			let label = coder.decodeObject(of: FuzzLabel.self, forKey: "label")
		else {
			return nil
		}

		self.title = title
		self.label = label
		record = coder.decodeObject(of: FuzzRecord.self, forKey: "record")
	}

	public func encode(with coder: NSCoder) {
		coder.encode(title, forKey: "title")
		coder.encode(label, forKey: "label")
		coder.encode(record, forKey: "record")
	}
}

/// Foundation collections: an array, a dictionary and a set.
public final class FuzzCollections: NSObject, NSSecureCoding, Defaults.Serializable {
	public static var supportsSecureCoding: Bool { true }
	public let tags: [String]
	public let scores: [String: Int]
	public let flags: Set<String>

	public init(tags: [String], scores: [String: Int], flags: Set<String>) {
		self.tags = tags
		self.scores = scores
		self.flags = flags
	}

	public init?(coder: NSCoder) {
		guard
			let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String],
			let scores = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self], forKey: "scores") as? [String: Int],
			let flags = coder.decodeObject(of: [NSSet.self, NSString.self], forKey: "flags") as? Set<String>
		else {
			return nil
		}

		self.tags = tags
		self.scores = scores
		self.flags = flags
	}

	public func encode(with coder: NSCoder) {
		coder.encode(tags as NSArray, forKey: "tags")
		coder.encode(scores as NSDictionary, forKey: "scores")
		coder.encode(flags as NSSet, forKey: "flags")
	}
}

/// A subject of the archive fuzz: its name, a valid archive, and how to read a stored archive as it.
public struct ArchiveFuzzSubject: Sendable {
	public let name: String
	/// A valid archive of one instance, the starting point of every mutation.
	public let archive: @Sendable () -> Data
	/// Reads key `name` of `suite` as this class: `true` if a value decoded, `false` if the default came back.
	public let read: @Sendable (_ suite: UserDefaults, _ name: String) -> Bool

	static func of<Subject: NSObject & NSSecureCoding & Defaults.Serializable>(_: Subject.Type, _ sample: @escaping @Sendable () -> Subject) -> Self {
		Self(
			name: "\(Subject.self)",
			archive: { try! NSKeyedArchiver.archivedData(withRootObject: sample(), requiringSecureCoding: true) },
			read: { suite, name in suite[Defaults.Key<Subject?>(name, suite: suite)] != nil }
		)
	}

	public static let all: [Self] = [
		.of(FuzzLabel.self) { FuzzLabel(text: "hello") },
		.of(FuzzRecord.self) { sampleRecord },
		.of(FuzzNested.self) { FuzzNested(title: "outer", label: FuzzLabel(text: "inner"), record: sampleRecord) },
		.of(FuzzCollections.self) { FuzzCollections(tags: ["a", "b", "c"], scores: ["x": 1, "y": 2], flags: ["on", "off"]) },
	]

	public static func named(_ name: String) -> Self? {
		all.first { $0.name == name }
	}

	private static var sampleRecord: FuzzRecord {
		FuzzRecord(
			name: "record",
			count: 42,
			ratio: 0.5,
			enabled: true,
			created: Date(timeIntervalSinceReferenceDate: 700_000_000),
			identifier: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
		)
	}
}
