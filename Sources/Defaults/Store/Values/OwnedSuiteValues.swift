import Foundation
import Synchronization

/**
A suite's values, owned by the library (Linux).

Every ``ValueLayer``, read by its precedence (``ValueLayers``): values an
administrator forces, launch arguments, the suite's stored values (its file as
this process knows it, with this process's changes), the administrator's
system-wide defaults, the global domain, and the defaults this suite's keys
registered. Each read is one lookup in `effective`, which holds the winning
layer of every name and is updated by each change to any layer: a change
costs a handful of lookups, whatever the size of the suite, and a read never
rebuilds anything.

The stored values and the registered defaults live in `effective` too, as
the entries of those layers: a suite is mostly stored values and defaults
its keys registered, and one table of them (rather than a table per layer
and one of winners) halves what a loaded suite costs and spares each write
a lookup. A declaration only queues its default; the next access ranks the
queue in one batch. Only a stored value that a forced value or a
launch argument hides is kept apart, in `storedBeneath`, and a registered
default that any other layer hides, in `registeredBeneath`.

Registered defaults belong to this suite only, unlike Foundation's on Linux,
which every suite of the process shares.

The lock guards every field and is held only inside this type's methods,
never while calling out, except for `apply`'s `accepted` closure, which is
the library's own bookkeeping (it records the pending change for the file).
*/
final class OwnedSuiteValues: SuiteValueStore, @unchecked Sendable {
	// Spelled out rather than `Locked`: reads take it once, and every nanosecond of a read counts.
	private let lock = NSLock()
	// Every variable below is only touched under `lock`: the runtime's exclusivity checks would repeat it at every access.
	/// Every layer but the stored and the registered ones.
	@exclusivity(unchecked) private var layers = ValueLayers()
	/// The `.argument` layer too, which never changes: read here without the lock.
	private let arguments: [String: Any]
	/// What a read of each name finds; a stored value or a registered default that wins is kept only here.
	@exclusivity(unchecked) private var effective: [String: SuiteEntry] = [:]
	/// The stored values a forced value or a launch argument hides, which `effective` does not hold.
	@exclusivity(unchecked) private var storedBeneath: [String: Any] = [:]
	/// The registered defaults another layer hides, which `effective` does not hold.
	@exclusivity(unchecked) private var registeredBeneath: [String: Any] = [:]
	/// Registered defaults not in `effective` yet (``register(_:forKey:)``).
	@exclusivity(unchecked) private var unsettledRegistrations: [Registration] = []
	@exclusivity(unchecked) private var lastVersion: UInt64 = 0
	/// `lastVersion`, published for reads that take no lock (``currentVersion``).
	private let published = Atomic<UInt64>(0)

	init(stored: [String: PropertyListValue], arguments: [String: Any], global: [String: PropertyListValue]) {
		self.arguments = arguments
		layers.replace(.argument, with: arguments)
		layers.replace(.global, with: global.mapValues(\.object))
		for name in Set(arguments.keys).union(global.keys) {
			refresh(name)
		}

		if !stored.isEmpty {
			startStored(from: stored)
		}
	}

	/// Takes the file's contents as first read, once, before anything else reads or writes the suite (it holds no stored value until then).
	func startStored(from contents: [String: PropertyListValue]) {
		startStored { entry in contents.mapValues(entry) }
	}

	/**
	Takes the file's contents as first read, once, before anything else reads
	or writes the suite: `build` decodes them, making each value an entry with
	the function it is given. Returns `false`, changing nothing, when `build`
	returns `nil` (the contents do not decode).
	*/
	@discardableResult
	func startStored(building build: (_ entry: (PropertyListValue) -> SuiteEntry) -> [String: SuiteEntry]?) -> Bool {
		lockSettled()
		defer { lock.unlock() }
		assert(storedBeneath.isEmpty && !effective.values.contains { $0.layer == .stored }, "a suite's values start from its file once")
		// Built whole, in the contents' own table layout: no name is hashed again and no table grows step by step (at
		// 10,000 names, a third of the start-up's instructions and of its memory peak). A name's winner is its stored
		// value unless another layer holds it, and every name another layer holds is in `effective` already.
		let version = StateVersions.next()
		guard let stored = build({ SuiteEntry(object: $0.object, layer: .stored, version: version) }) else {
			return false
		}

		lastVersion = version
		let others = effective
		effective = stored
		published.store(version, ordering: .releasing)
		for (name, entry) in others {
			// Its entry is gone: the default waits beneath until `refresh` ranks it again.
			if entry.layer == .registered {
				registeredBeneath[name] = entry.object
			}

			refresh(name)
		}

		return true
	}

	var currentVersion: UInt64 {
		published.load(ordering: .acquiring)
	}

	func entry(forKey name: String) -> SuiteEntry? {
		lockSettled()
		defer { lock.unlock() }
		return effective[name]
	}

	func rememberDecoded(_ decoded: AnyObject, forKey name: String, version: UInt64) {
		lockSettled()
		defer { lock.unlock() }
		if effective[name]?.version == version {
			effective[name]?.decoded = decoded
		}
	}

	func ownObject(forKey name: String) -> Any? {
		lockSettled()
		defer { lock.unlock() }
		return layers.winner(of: name, stored: stored(name, under: effective[name]), registered: nil, among: \.isOwn)?.object
	}

	func storedObject(forKey name: String) -> Any? {
		lockSettled()
		defer { lock.unlock() }
		return stored(name, under: effective[name])
	}

	func configuredValues() -> [String: PropertyListValue] {
		lockSettled()
		let effective = effective
		lock.unlock()
		return effective.compactMapValues { $0.layer.configures ? PropertyListValue($0.object) : nil }
	}

	func configuredObject(forKey name: String) -> Any? {
		lockSettled()
		defer { lock.unlock() }
		return effective[name].flatMap { $0.layer.configures ? $0.object : nil }
	}

	/// Only the library changes them: other processes' changes arrive through it.
	var changesBehindTheLibrary: Bool {
		false
	}

	func storedValues() -> [String: PropertyListValue] {
		// Copied under the lock (no element is), picked out after it.
		lockSettled()
		let (effective, beneath) = (effective, storedBeneath)
		lock.unlock()
		var stored = effective.compactMapValues { $0.layer == .stored ? PropertyListValue($0.object) : nil }
		for (name, object) in beneath {
			stored[name] = PropertyListValue(object)
		}

		return stored
	}

	func argument(forKey name: String) -> Any? {
		arguments[name]
	}

	func storedNames() -> [String] {
		lockSettled()
		let (effective, beneath) = (effective, storedBeneath)
		lock.unlock()
		return effective.compactMap { $0.value.layer == .stored ? $0.key : nil } + beneath.keys
	}

	func apply(_ object: Any?, to name: String, reporting: Bool, if accepted: (_ value: PropertyListValue?, _ isForced: Bool) -> Bool) -> AppliedChange? {
		let value = object.flatMap(PropertyListValue.init)
		// Kept as the file will give it back, so reads before and after a restart agree.
		let normalized = value?.object
		lockSettled()
		defer { lock.unlock() }
		// Found once, and used again for the new entry: `accepted` changes nothing here, so the index stays valid. The
		// entry is read field by field, never copied whole: a copy of its `Any` goes through the runtime, at every write.
		let index = effective.index(forKey: name)
		let oldLayer = index.map { Self.field(of: &effective.values[$0]) { $0.layer } }
		guard accepted(value, oldLayer == .forced) else {
			return nil
		}

		let oldObject = reporting ? index.map(entryObject(at:)) : nil
		// `effective` holds the winner, so its layer says whether any layer above the stored one holds `name`.
		if let index, let oldLayer, oldLayer.precedes(.stored) {
			storedBeneath[name] = normalized
			let hidden = entryObject(at: index)
			publish(hidden, oldLayer, for: name, at: index)
			return AppliedChange(oldObject: oldObject, newObject: reporting ? hidden : nil)
		}

		if let normalized {
			if let index, oldLayer == .registered {
				registeredBeneath[name] = entryObject(at: index)
			}

			publish(normalized, .stored, for: name, at: index)
			return AppliedChange(oldObject: oldObject, newObject: reporting ? normalized : nil)
		}

		let registered: Any?
		if let index, oldLayer == .registered {
			registered = entryObject(at: index)
		} else {
			registered = registeredBeneath.isEmpty ? nil : registeredBeneath[name]
		}

		let winner = layers.winner(of: name, stored: nil, registered: registered) { ValueLayer.stored.precedes($0) }
		keepRegistered(registered, of: name, beneath: winner?.layer)
		publish(winner, for: name, at: index)
		return AppliedChange(oldObject: oldObject, newObject: reporting ? winner?.object : nil)
	}

	/**
	Queues `object` as `name`'s registered default, as a new version: a
	declaration costs an append, and the table takes the defaults declared
	since at the next access under the lock (most keys are declared long
	before their suite is first read, many at once). Reads that take no lock
	see the new version and take the lock.
	*/
	func register(_ object: Any, forKey name: String) {
		lock.lock()
		defer { lock.unlock() }
		let version = StateVersions.next()
		unsettledRegistrations.append(Registration(name: name, object: object, version: version))
		lastVersion = version
		published.store(version, ordering: .releasing)
	}

	/// Takes the lock, and puts the defaults registered since the last access in `effective` first.
	private func lockSettled() {
		lock.lock()
		if !unsettledRegistrations.isEmpty {
			settleRegistrations()
		}
	}

	/// Ranks the queued registered defaults, in the order they came. Call with the lock held.
	private func settleRegistrations() {
		let registrations = unsettledRegistrations
		unsettledRegistrations = []
		// One growth for the batch, not one at each power of two.
		effective.reserveCapacity(effective.count + registrations.count)
		for registration in registrations {
			// The lowest layer: it is what reads find unless another layer holds the name, and `effective` says whether one
			// does. Looked up and set in one access, which hashes the name once.
			let isHidden = Self.field(of: &effective[registration.name]) { entry in
				guard entry == nil || entry?.layer == .registered else {
					return true
				}

				entry = SuiteEntry(object: registration.object, layer: .registered, version: registration.version)
				return false
			}

			if isHidden {
				registeredBeneath[registration.name] = registration.object
			}
		}
	}

	func registeredObject(forKey name: String) -> Any? {
		lockSettled()
		defer { lock.unlock() }
		return registered(name, under: effective[name])
	}

	/**
	Replaces the layers in `newLayers` (the administrator's: forced values,
	system-wide defaults); returns what a read of each name whose result
	changed gave before and gives now.
	*/
	func replace(_ newLayers: [ValueLayer: [String: PropertyListValue]]) -> [String: AppliedChange] {
		lockSettled()
		defer { lock.unlock() }
		var names: Set<String> = []
		for (layer, values) in newLayers {
			names.formUnion(PropertyListFileContents.changedKeys(from: layers[layer].compactMapValues(PropertyListValue.init), to: values))
			layers.replace(layer, with: values.mapValues(\.object))
		}

		var changes: [String: AppliedChange] = [:]
		for name in names {
			let old = effective[name]
			let new = refresh(name)
			if old.flatMap({ PropertyListValue($0.object) }) != new.flatMap(PropertyListValue.init) {
				changes[name] = AppliedChange(oldObject: old?.object, newObject: new)
			}
		}

		return changes
	}

	func replaceGlobal(with values: [String: PropertyListValue]) -> [String: AppliedChange] {
		let objects = values.mapValues(\.object)
		lockSettled()
		defer { lock.unlock() }
		let changed = PropertyListFileContents.changedKeys(from: layers[.global].compactMapValues(PropertyListValue.init), to: values)
		layers.replace(.global, with: objects)
		var changes: [String: AppliedChange] = [:]
		for name in changed {
			let old = effective[name]
			let new = refresh(name)
			if old?.layer == .global || effective[name]?.layer == .global {
				changes[name] = AppliedChange(oldObject: old?.object, newObject: new)
			}
		}

		return changes
	}

	/// The stored object of `name`, whose entry in `effective` is `entry`. Call with the lock held.
	private func stored(_ name: String, under entry: SuiteEntry?) -> Any? {
		guard let entry else {
			return nil
		}

		if entry.layer == .stored {
			return entry.object
		}

		return entry.layer.precedes(.stored) && !storedBeneath.isEmpty ? storedBeneath[name] : nil
	}

	/// The registered default of `name`, whose entry in `effective` is `entry`. Call with the lock held.
	private func registered(_ name: String, under entry: SuiteEntry?) -> Any? {
		if let entry, entry.layer == .registered {
			return entry.object
		}

		return registeredBeneath.isEmpty ? nil : registeredBeneath[name]
	}

	/// Keeps `name`'s registered default beneath a winner of another layer (`nil`: none), or not at all once it wins. Call with the lock held.
	private func keepRegistered(_ registered: Any?, of name: String, beneath layer: ValueLayer?) {
		if let registered, layer != .registered {
			registeredBeneath[name] = registered
		} else if !registeredBeneath.isEmpty {
			registeredBeneath[name] = nil
		}
	}

	/**
	Recomputes what a read of `name` finds, after a change to a layer other
	than the stored one, as a new version; returns its object. The stored
	value and the registered default move between `effective` and the tables
	beneath it as the layers above them come and go. Call with the lock held.
	*/
	@discardableResult
	private func refresh(_ name: String) -> Any? {
		let index = effective.index(forKey: name)
		let entry = index.map { effective.values[$0] }
		let stored = stored(name, under: entry)
		let registered = registered(name, under: entry)
		let winner = layers.winner(of: name, stored: stored, registered: registered)
		if let stored, let layer = winner?.layer, layer.precedes(.stored) {
			storedBeneath[name] = stored
		} else if !storedBeneath.isEmpty {
			storedBeneath[name] = nil
		}

		keepRegistered(registered, of: name, beneath: winner?.layer)
		publish(winner, for: name, at: index)
		return winner?.object
	}

	/// Makes `winner` what a read of `name` finds (`nil`: nothing), as a new version; `index`: where `effective` holds `name`, when the caller looked it up. Call with the lock held.
	private func publish(_ winner: (object: Any, layer: ValueLayer)?, for name: String, at index: Dictionary<String, SuiteEntry>.Index?) {
		if let winner {
			publish(winner.object, winner.layer, for: name, at: index)
			return
		}

		// Every change is a new version, a removal too: a key's last read (``currentVersion``) must not outlive it.
		lastVersion = StateVersions.next()
		if let index {
			effective.remove(at: index)
		} else {
			effective[name] = nil
		}

		published.store(lastVersion, ordering: .releasing)
	}

	/// Makes `object`, from `layer`, what a read of `name` finds, as a new version; `index` as above. Call with the lock held.
	private func publish(_ object: consuming Any, _ layer: ValueLayer, for name: String, at index: Dictionary<String, SuiteEntry>.Index?) {
		lastVersion = StateVersions.next()
		let entry = SuiteEntry(object: object, layer: layer, version: lastVersion)
		if let index {
			effective.values[index] = entry
		} else {
			effective[name] = entry
		}

		published.store(lastVersion, ordering: .releasing)
	}

	/// The object of the entry at `index`, copied alone. Call with the lock held.
	private func entryObject(at index: Dictionary<String, SuiteEntry>.Index) -> Any {
		Self.field(of: &effective.values[index]) { $0.object }
	}

	/// Reads a field of an entry in place: the dictionary's getter would copy the whole entry, its `Any` through the runtime, at every write.
	@inline(__always)
	private static func field<Entry, Field>(of entry: inout Entry, _ read: (inout Entry) -> Field) -> Field {
		read(&entry)
	}

	private struct Registration {
		let name: String
		let object: Any
		let version: UInt64
	}
}
