import Foundation

/**
What a read of one key finds: the object, the layer it came from, and which
version of the key it is.

`version` changes with every change to the key, so a decoded value remembered
with a version is valid exactly as long as the version is current (`0`: the
store cannot tell versions apart, and remembered values are matched by
comparing the object instead). `decoded` is the value a key last decoded from
this version, kept by the store so a bridged value is decoded once per
version.
*/
struct SuiteEntry {
	let object: Any
	/// The version in the low 56 bits, the layer in the high 8: a suite holds one entry per name, and 8 bytes an entry are a tenth of it.
	private let versionAndLayer: UInt64
	var decoded: AnyObject?

	private static let versionBits: UInt64 = 56

	init(object: Any, layer: ValueLayer, version: UInt64) {
		// Versions count the process's changes from 1: 2^56 of them take longer than any process lives.
		assert(version >> Self.versionBits == 0, "a version fits in 56 bits")
		self.object = object
		versionAndLayer = UInt64(layer.rawValue) << Self.versionBits | version
	}

	var layer: ValueLayer {
		ValueLayer(rawValue: Int(versionAndLayer >> Self.versionBits)) ?? .stored
	}

	var version: UInt64 {
		versionAndLayer & (1 << Self.versionBits - 1)
	}
}

/**
A change the store applied: what a read returned before and after it.
*/
struct AppliedChange {
	let oldObject: Any?
	let newObject: Any?
}

/**
Where a suite's values live, behind one interface.

Two words, used exactly: a *stored* value is in the suite's own domain (its
file); a suite's *own* value is a stored one or a launch argument, which
overrides it. Registered and global defaults are neither.

On Linux the library owns them (``OwnedSuiteValues``): the file's contents,
the launch arguments, the global domain and this suite's registered defaults,
in memory, at dictionary speed. On Apple platforms, and for suites that keep
their values in memory only (`InMemoryDefaults`), `UserDefaults` itself is the
store (``FoundationSuiteValues``).

Writers call ``apply(_:to:if:)``, whose `accepted` closure runs under the
store's lock: what it records (the pending change for the file) is in step
with the value, whatever other threads write meanwhile, and what it refuses
(another process's change to a key this process is about to write) is never
applied.
*/
protocol SuiteValueStore: AnyObject, Sendable {
	/// What a read of `name` finds: the value of the highest ``ValueLayer`` holding one.
	func entry(forKey name: String) -> SuiteEntry?

	/**
	The version of the store's last change to any value, unique in the process
	(no other state of any suite has it), read without the lock; `0` when the
	store cannot tell. A key that read this version before returns what it read
	then (``Defaults/Key``'s last read), without asking the store again.
	*/
	var currentVersion: UInt64 { get }

	/// Remembers what a key decoded from `version` of `name`, if that version is still current.
	func rememberDecoded(_ decoded: AnyObject, forKey name: String, version: UInt64)

	/// The suite's own value for `name`: stored, or given as a launch argument; registered and global defaults left out.
	func ownObject(forKey name: String) -> Any?

	/// The value stored in the suite for `name`, whatever launch arguments, global or registered defaults say.
	func storedObject(forKey name: String) -> Any?

	/**
	Every value that configures the suite, read at once: forced values, launch
	arguments, stored values and system-wide defaults, by precedence. Global
	and registered defaults are left out (``ValueLayer/configures``): they are
	fallbacks, not configuration.
	*/
	func configuredValues() -> [String: PropertyListValue]

	/// The value that configures `name`, as ``configuredValues()`` gives it.
	func configuredObject(forKey name: String) -> Any?

	/// Whether the stored values also change behind the library's back (Foundation's copy: raw `UserDefaults`, other processes), so a size account must measure them again before it refuses or warns.
	var changesBehindTheLibrary: Bool { get }

	/// Every value stored in the suite, without launch arguments: what its file must hold.
	func storedValues() -> [String: PropertyListValue]

	/// The launch argument given for `name`, if any.
	func argument(forKey name: String) -> Any?

	/// The names of every value stored in the suite (not arguments, global or registered ones).
	func storedNames() -> [String]

	/**
	Stores `object` under `name` (`nil`: removes it) if `accepted`, which runs
	under the store's lock with the value as a property list and whether an
	administrator forces `name` (read under the same lock, so a write cannot
	slip between the check and the change), returns `true`. Returns what a
	read gave before and gives after (a launch argument or a default may show
	through), or `nil` when the change was not accepted. Unless `reporting`
	(someone observes `name`), a store may leave both objects out: copying
	them costs a write more than the rest of its change.
	*/
	func apply(_ object: Any?, to name: String, reporting: Bool, if accepted: (_ value: PropertyListValue?, _ isForced: Bool) -> Bool) -> AppliedChange?

	/// Makes `object` this suite's registered default for `name`.
	func register(_ object: Any, forKey name: String)

	/// The registered default of `name` in this suite.
	func registeredObject(forKey name: String) -> Any?

	/**
	Replaces the global domain's values; returns what a read of each name
	whose result changed gave before and gives now. A store that leaves the
	global domain to Foundation (which reads it by itself) returns none.
	*/
	func replaceGlobal(with values: [String: PropertyListValue]) -> [String: AppliedChange]
}

extension SuiteValueStore {
	/// Applies a change as ``apply(_:to:reporting:if:)`` does, reporting what a read gave before and gives after.
	func apply(_ object: Any?, to name: String, if accepted: (_ value: PropertyListValue?, _ isForced: Bool) -> Bool) -> AppliedChange? {
		apply(object, to: name, reporting: true, if: accepted)
	}
}
