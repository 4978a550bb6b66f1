import Foundation
import Synchronization

extension Defaults.Key {
	/// Reads the key from `defaults`: the stored value decoded, or the default when nothing decodes.
	@usableFromInline
	func read(from defaults: UserDefaults) -> Value {
		// The production path reads the stored suite in place (no retain), as long as no test has isolated itself.
		if defaults === suite, !SuiteIsolation.mayBeActive {
			return read(from: processWideSuite)
		}

		return read(from: suiteObject(for: defaults))
	}

	/// Writes `value` to `defaults`; a `nil` optional removes the stored value.
	@usableFromInline
	func write(_ value: Value, to defaults: UserDefaults) {
		if defaults === suite, !SuiteIsolation.mayBeActive {
			write(value, to: processWideSuite)
			return
		}

		write(value, to: suiteObject(for: defaults))
	}

	/**
	Reads the key: what it last read, when the suite has not changed since
	(``LastReadLocks``); else one lookup in the suite object, then the value decoded
	from what it found, or the value this key already decoded from that version.
	*/
	func read(from suite: Suite) -> Value {
		// Loaded before the lookup: a change made meanwhile leaves a last read that the next read does not trust. A secret's
		// version is its suite's secrets' (memory's), and a read that misses goes to them, out of line.
		let version = isSecret ? suite.secrets.currentVersion : suite.values.currentVersion
		// Spelled out here rather than returned as an optional: an optional of a generic value costs a metadata lookup at every read.
		if version != 0, codec.decodesToValues, lastReadVersion.load(ordering: .acquiring) == version {
			if Self.remembersInline {
				// A sequence lock: the bits are the version's unless a remembering started meanwhile, which claims the version first.
				let bits = lastReadBits.load(ordering: .relaxed)
				atomicMemoryFence(ordering: .acquiring)
				if lastReadVersion.load(ordering: .relaxed) == version {
					return Self.value(fromBits: bits)
				}
			}

			let mutex = LastReadLocks.mutex(for: self)
			pthread_mutex_lock(mutex)
			// Checked again under the mutex: another thread may have remembered another read meanwhile.
			if lastReadVersion.load(ordering: .relaxed) == version, let stored = lastReadValue {
				let value = stored.pointee
				pthread_mutex_unlock(mutex)
				return value
			}

			pthread_mutex_unlock(mutex)
		}

		if isSecret {
			return readSecret(in: suite, at: version)
		}

		guard let entry = suite.values.entry(forKey: name) else {
			let value = defaultValue
			if hasStaticDefault {
				remember(value, at: version)
			}

			return value
		}

		if let decoded = entry.decoded as? DecodedValue<Value> {
			remember(decoded.value, at: version)
			return decoded.value
		}

		do {
			let value = try decode(entry, in: suite)
			remember(value, at: version)
			return value
		} catch {
			return value(afterFailing: error, toDecode: entry.object, in: suite)
		}
	}

	/// Remembers what a read at `version` (unique to one state of one source of one suite) returned, when the source tells versions and the value cannot change behind the next read.
	func remember(_ value: Value, at version: UInt64) {
		guard version != 0, codec.decodesToValues else {
			return
		}

		if Self.remembersInline {
			// Claimed by one compare-and-exchange rather than the mutex: a thread that finds another remembering meanwhile
			// leaves it be (the next read asks the suite again, as after any miss). While claimed the version is one no
			// suite ever reaches, which no read matches.
			let current = lastReadVersion.load(ordering: .relaxed)
			guard current != LastReadLocks.claimed, lastReadVersion.compareExchange(expected: current, desired: LastReadLocks.claimed, ordering: .relaxed).exchanged else {
				return
			}

			atomicMemoryFence(ordering: .releasing)
			lastReadBits.store(Self.bits(of: value), ordering: .relaxed)
			lastReadVersion.store(version, ordering: .releasing)
			return
		}

		let mutex = LastReadLocks.mutex(for: self)
		pthread_mutex_lock(mutex)
		defer { pthread_mutex_unlock(mutex) }
		if let stored = lastReadValue {
			stored.pointee = value
		} else {
			let stored = UnsafeMutablePointer<Value>.allocate(capacity: 1)
			stored.initialize(to: value)
			lastReadValue = stored
		}

		lastReadVersion.store(version, ordering: .releasing)
	}

	/// Whether the key's last read is kept in ``lastReadBits``: a plain value of at most 8 bytes, copied with no lock.
	@inline(__always)
	private static var remembersInline: Bool {
		_isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<UInt64>.size
	}

	@inline(__always)
	private static func bits(of value: Value) -> UInt64 {
		var bits: UInt64 = 0
		withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: value, as: Value.self) }
		return bits
	}

	@inline(__always)
	private static func value(fromBits bits: UInt64) -> Value {
		withUnsafeBytes(of: bits) { $0.load(as: Value.self) }
	}

	/// Decodes a stored object; `nil` or an object that does not decode gives the default.
	func value(fromStored object: Any?, in suite: Suite) -> Value {
		guard let object else {
			return defaultValue
		}

		do {
			return try codec.decode(object)
		} catch {
			return value(afterFailing: error, toDecode: object, in: suite)
		}
	}

	func write(_ value: Value, to suite: Suite) {
		if isSecret {
			writeSecret(value, in: suite)
			return
		}

		do {
			switch try codec.encode(value) {
			case .object(let object):
				suite.change(name, to: object, origin: .local)
			case .absent:
				suite.change(name, to: nil, origin: .local)
			}
		} catch {
			DiagnosticReporter.report(.unencodableValue, key: name, "\(error); nothing was written")
		}
	}

	/// Decodes what a read found; a bridged value is remembered with the version it came from, so it is decoded once per version.
	private func decode(_ entry: SuiteEntry, in suite: Suite) throws(SerializationError) -> Value {
		guard codec.cachesDecodedValues else {
			return try codec.decode(entry.object)
		}

		guard entry.version != 0 else {
			// A store that cannot tell versions apart: the key remembers the object its value came from.
			guard let decodedValues else {
				return try codec.decode(entry.object)
			}

			return try decodedValues.value(for: entry.object, decode: codec.decode)
		}

		let value = try codec.decode(entry.object)
		suite.values.rememberDecoded(DecodedValue(value), forKey: name, version: entry.version)
		return value
	}

	/// The rare path, kept out of line so reads that decode pay nothing for it.
	@inline(never)
	private func value(afterFailing error: SerializationError, toDecode object: Any, in suite: Suite) -> Value {
		if let value = valueTypedByHand(object, in: suite) {
			return value
		}

		if let found = StoredFormFallback.decode(object, as: Value.self) {
			DiagnosticReporter.reportOnce(
				.otherStoredForm,
				about: object,
				key: name,
				in: suite,
				"stored as \(found.form), not in the form \(Value.self) is stored in now; read that form, and the next write stores the current one"
			)
			return found.value
		}

		DiagnosticReporter.reportUndecodable(object, key: name, in: suite, undecodableMessage(error, object: object, in: suite))
		return defaultValue
	}

	/// What the diagnostic of an undecodable value says: an administrator's value is named by its file, not called stored.
	private func undecodableMessage(_ error: SerializationError, object: Any, in suite: Suite) -> String {
		guard let source = suite.administratorSource(of: name) else {
			return "\(error); returning the default and leaving the stored value untouched"
		}

		let expected = TypeName.withArticle(Value.self)
		let problem = error.description == SerializationError.mismatch(object, expected: Value.self).description
			? "holds \(StoredValueDescription.of(object)), not \(expected)"
			: "holds \(StoredValueDescription.of(object)), which does not read as \(expected) (\(error))"
		return "\(source) \(problem); returning the key's default. The administrator's file is left as it is; only a change to it changes what this key reads"
	}

	/// The origin of what a read in `suite` returns: the layer of the value found, or the default when that value does not decode.
	func origin(in suite: Suite) -> Defaults.ValueOrigin {
		guard let entry = suite.values.entry(forKey: name), decodes(entry, in: suite) else {
			return .registeredDefault
		}

		return suite.origin(of: name, layer: entry.layer)
	}

	/// Whether a read of `entry` returns a value decoded from it rather than the default; reports nothing and remembers nothing.
	private func decodes(_ entry: SuiteEntry, in suite: Suite) -> Bool {
		if entry.decoded is DecodedValue<Value> {
			return true
		}

		do {
			_ = try codec.decode(entry.object)
			return true
		} catch {
			return valueTypedByHand(entry.object, in: suite) != nil || StoredFormFallback.decode(entry.object, as: Value.self) != nil
		}
	}

	/// A launch argument typed as plain text (`-homepage https://example.com`) read as the key's type.
	private func valueTypedByHand(_ object: Any, in suite: Suite) -> Value? {
		guard let text = object as? String, suite.values.argument(forKey: name) as? String == text else {
			return nil
		}

		for interpretation in LaunchArgumentReading.interpretations(of: text) {
			if let value = try? codec.decode(interpretation) {
				return value
			}
		}

		return nil
	}
}

extension Defaults.Key: TypedOrigin {
	var originOfRead: Defaults.ValueOrigin {
		origin(in: suiteObject)
	}
}
