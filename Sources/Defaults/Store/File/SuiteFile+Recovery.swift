import Foundation

/**
What a suite's file does when the file is not a property list it can read:
a file rewritten in place by a program that takes no lock is waited for, a
file that does not parse is set aside (kept for the user) and rewritten
from the values in memory, and a FIFO, device or oversized file is moved
aside unread.
*/
extension SuiteFile {
	/// The unreadable file last set aside, so that a burst of the same failure is set aside once.
	struct SetAside {
		/// A digest of the bytes, not the bytes: a burst of failures must not hold copies of the file in memory.
		let bytes: Int
		let at: ContinuousClock.Instant

		init(bytes: Data?, at: ContinuousClock.Instant) {
			self.bytes = bytes.map(FileVersion.digest) ?? 0
			self.at = at
		}
	}

	/**
	A process that only reads a suite whose file does not parse would see
	every default without a word: it is told once, when it first uses the
	suite. The file is left where it is (a program rewriting it in place is
	waited for first); the first write of this process sets it aside.
	*/
	func reportUnreadableAtStart(startingValues values: OwnedSuiteValues?) {
		guard let (reading, data, identity) = try? readSettled(fileSystem.identity(of: url)) else {
			return
		}

		switch reading {
		case .contents(let contents):
			// Another program was rewriting it in place, and has finished.
			values?.startStored(from: contents)
			startFrom(KnownFileContents(contents), data: data, identity: identity)
		case .unreadable(let data) where !data.isEmpty:
			DiagnosticReporter.report(
				.unreadableFile,
				key: nil,
				"\(url.path) \(reading.problem ?? ""); suite '\(domainName)' reads as if nothing were stored until the file is readable again, and the first write of this process sets the file aside"
			)
		case .missing, .unreadable, .tooLarge:
			break
		}
	}

	/**
	A FIFO, socket or device at the suite's path is never opened by the
	library, and a file too large for a preferences file is never read, but
	Foundation's own `UserDefaults` reads would block on the one and exhaust
	memory on the other: it is moved aside (kept for the user), so the suite
	starts empty.
	*/
	func setAsideUnopened(because reason: String) {
		var message = "\(url.path) \(reason)"
		do {
			let aside = try fileSystem.moveUnreadableAside(url)
			message += "; moved aside to \(aside.path), the suite starts empty"
		} catch {
			message += "; it could not be moved aside (\(error)), so this suite is not written"
		}

		DiagnosticReporter.report(.unreadableFile, key: nil, message)
	}

	/**
	Reads the file under the inter-process lock; a file that does not parse
	while it keeps changing is being rewritten in place by a program that does
	not take the lock (Foundation's own `UserDefaults` does that), so it is
	read again after short waits, until it parses, stops changing, or
	``PersistenceSettings/settleLimit`` has passed. Returns what was read last
	and the identity it was read at.
	*/
	func readSettled(
		_ identity: FileIdentity?
	) throws(Defaults.PersistenceError) -> (reading: PropertyListFileContents.Reading, data: Data?, identity: FileIdentity?) {
		var (reading, data) = try fileSystem.reading(url)
		var identity = identity
		let deadline = ContinuousClock.now + PersistenceSettings.settleLimit
		var unchangedSince = ContinuousClock.now
		while case .unreadable = reading, ContinuousClock.now < deadline {
			usleep(UInt32(PersistenceSettings.settleStep / .microseconds(1)))
			let current = fileSystem.identity(of: url)
			let (next, nextData) = try fileSystem.reading(url)
			if current == identity, nextData == data {
				// Unchanged for a while: nobody is writing it (a writer descheduled between
				// truncating and writing can leave it unchanged over one step), it is what it is.
				if ContinuousClock.now - unchangedSince >= PersistenceSettings.settleQuiet {
					break
				}

				continue
			}

			(reading, data, identity) = (next, nextData, current)
			unchangedSince = ContinuousClock.now
		}

		return (reading, data, identity)
	}

	/**
	A file that does not parse is never silently replaced: it is moved aside
	with a timestamped name, and the suite continues from what this process
	holds in memory. The same bytes failing again within
	``PersistenceSettings/setAsideBurst`` (a program that keeps writing the
	same broken file) are not set aside again: one copy is enough. The
	diagnostic is returned, to be reported once the locks are released.
	*/
	func recoverFromUnreadableFile(
		_ reading: PropertyListFileContents.Reading
	) throws(Defaults.PersistenceError) -> (contents: [String: PropertyListValue], diagnostic: Defaults.Diagnostic) {
		var message = "the file \(url.path) \(reading.problem ?? "")"
		if reading.mustBeSetAside {
			let now = ContinuousClock.now
			let failure = SetAside(bytes: reading.unreadableBytes, at: now)
			let previous = state.withLock { $0.lastSetAside }
			if let previous, previous.bytes == failure.bytes, now - previous.at < PersistenceSettings.setAsideBurst {
				message += "; not set aside again (the same bytes were set aside \(((now - previous.at) / .milliseconds(1)).rounded()) ms ago)"
			} else {
				let aside = try fileSystem.moveUnreadableAside(url)
				state.withLock { $0.lastSetAside = failure }
				message += "; moved aside to \(aside.path)"
			}
		}

		let diagnostic = Defaults.Diagnostic(kind: .unreadableFile, key: nil, message: message + "; rewriting it from the values in memory")
		return (suite.values.storedValues(), diagnostic)
	}
}
