import Foundation
import Synchronization

/**
A suite's values, owned by the library (Linux).

Every ``ValueLayer``, read by its precedence (``ValueLayers``): values an
administrator forces, launch arguments, the suite's stored values (its file as
this process knows it, with this process's changes), the administrator's
system-wide defaults, the global domain, and the defaults this suite's keys
registered. Each read is one lookup
in `effective`, which holds the winning layer of every name and is updated by
each change to any layer: a change costs a handful of lookups, whatever the
size of the suite, and a read never rebuilds anything.

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
	@exclusivity(unchecked) private var layers = ValueLayers()
	/// The `.argument` layer too, which never changes: read here without the lock.
	private let arguments: [String: Any]
	@exclusivity(unchecked) private var effective: [String: SuiteEntry] = [:]
	@exclusivity(unchecked) private var lastVersion: UInt64 = 0
	/// `lastVersion`, published for reads that take no lock (``currentVersion``).
	private let published = Atomic<UInt64>(0)
	/// Versions are numbered across the process, so that no two states of any two suites share one.
	private static let versions = Atomic<UInt64>(0)

	init(stored: [String: PropertyListValue], arguments: [String: Any], global: [String: PropertyListValue]) {
		self.arguments = arguments
		layers.replace(.stored, with: stored.mapValues(\.object))
		layers.replace(.argument, with: arguments)
		layers.replace(.global, with: global.mapValues(\.object))
		for name in Set(stored.keys).union(arguments.keys).union(global.keys) {
			refresh(name)
		}
	}

	/// Takes the file's contents as first read, once, before anything else reads or writes the suite (its stored layer is empty until then).
	func startStored(from contents: [String: PropertyListValue]) {
		lock.lock()
		defer { lock.unlock() }
		assert(layers[.stored].isEmpty, "a suite's values start from its file once")
		// Built whole, in the contents' own table layout: no name is hashed again and no table grows step by step (at
		// 10,000 names, a third of the start-up's instructions and of its memory peak). A name's winner is its stored
		// value unless another layer holds it, and every name another layer holds is in `effective` already.
		let stored = contents.mapValues(\.object)
		layers.replace(.stored, with: stored)
		lastVersion = Self.versions.wrappingAdd(1, ordering: .relaxed).newValue
		let version = lastVersion
		let others = effective
		effective = stored.mapValues { SuiteEntry(object: $0, layer: .stored, version: version) }
		published.store(version, ordering: .releasing)
		for name in others.keys {
			refresh(name)
		}
	}

	var currentVersion: UInt64 {
		published.load(ordering: .acquiring)
	}

	func entry(forKey name: String) -> SuiteEntry? {
		lock.lock()
		defer { lock.unlock() }
		return effective[name]
	}

	func rememberDecoded(_ decoded: AnyObject, forKey name: String, version: UInt64) {
		lock.lock()
		defer { lock.unlock() }
		if effective[name]?.version == version {
			effective[name]?.decoded = decoded
		}
	}

	func ownObject(forKey name: String) -> Any? {
		lock.lock()
		defer { lock.unlock() }
		return layers.winner(of: name, among: \.isOwn)?.object
	}

	func storedObject(forKey name: String) -> Any? {
		lock.lock()
		defer { lock.unlock() }
		return layers[.stored][name]
	}

	func configuredValues() -> [String: PropertyListValue] {
		lock.lock()
		let configured = effective.compactMapValues { $0.layer.configures ? $0.object : nil }
		lock.unlock()
		return configured.compactMapValues(PropertyListValue.init)
	}

	func configuredObject(forKey name: String) -> Any? {
		lock.lock()
		defer { lock.unlock() }
		return effective[name].flatMap { $0.layer.configures ? $0.object : nil }
	}

	/// Only the library changes them: other processes' changes arrive through it.
	var changesBehindTheLibrary: Bool {
		false
	}

	func storedValues() -> [String: PropertyListValue] {
		lock.lock()
		let stored = layers[.stored]
		lock.unlock()
		return stored.compactMapValues(PropertyListValue.init)
	}

	func argument(forKey name: String) -> Any? {
		arguments[name]
	}

	func storedNames() -> [String] {
		lock.lock()
		defer { lock.unlock() }
		return Array(layers[.stored].keys)
	}

	func apply(_ object: Any?, to name: String, if accepted: (_ value: PropertyListValue?, _ isForced: Bool) -> Bool) -> AppliedChange? {
		let value = object.flatMap(PropertyListValue.init)
		// Kept as the file will give it back, so reads before and after a restart agree.
		let normalized = value?.object
		lock.lock()
		defer { lock.unlock() }
		// Found once, and used again for the new entry: `accepted` changes nothing here, so the index stays valid.
		let index = effective.index(forKey: name)
		let old = index.map { effective.values[$0] }
		guard accepted(value, old?.layer == .forced) else {
			return nil
		}

		layers.set(normalized, forKey: name, in: .stored)
		let winner = layers.winner(of: name, once: .stored, holds: normalized)
		return AppliedChange(oldObject: old?.object, newObject: publish(winner, for: name, at: index))
	}

	func register(_ object: Any, forKey name: String) {
		lock.lock()
		defer { lock.unlock() }
		layers.set(object, forKey: name, in: .registered)
		// Declaring a key registers its default: the registered layer is not looked up again.
		publish(layers.winner(of: name, once: .registered, holds: object), for: name, at: nil)
	}

	func registeredObject(forKey name: String) -> Any? {
		lock.lock()
		defer { lock.unlock() }
		return layers[.registered][name]
	}

	/**
	Replaces the layers in `newLayers` (the administrator's: forced values,
	system-wide defaults); returns what a read of each name whose result
	changed gave before and gives now.
	*/
	func replace(_ newLayers: [ValueLayer: [String: PropertyListValue]]) -> [String: AppliedChange] {
		lock.lock()
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
		lock.lock()
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

	/// Recomputes what a read of `name` finds, as a new version; returns its object. Call with the lock held.
	@discardableResult
	private func refresh(_ name: String) -> Any? {
		publish(layers.winner(of: name), for: name, at: nil)
	}

	/// Makes `winner` what a read of `name` finds, as a new version; `index`: where `effective` holds `name`, when the caller looked it up. Call with the lock held.
	@discardableResult
	private func publish(_ winner: (object: Any, layer: ValueLayer)?, for name: String, at index: Dictionary<String, SuiteEntry>.Index?) -> Any? {
		// Every change is a new version, a removal too: a key's last read (``currentVersion``) must not outlive it.
		lastVersion = Self.versions.wrappingAdd(1, ordering: .relaxed).newValue
		defer { published.store(lastVersion, ordering: .releasing) }
		switch (winner, index) {
		case (let winner?, let index?):
			effective.values[index] = SuiteEntry(object: winner.object, layer: winner.layer, version: lastVersion)
		case (let winner?, nil):
			effective[name] = SuiteEntry(object: winner.object, layer: winner.layer, version: lastVersion)
		case (nil, let index?):
			effective.remove(at: index)
		case (nil, nil):
			effective[name] = nil
		}

		return winner?.object
	}
}
