#if os(Linux)
import Foundation

/**
Hears the Secret Service's D-Bus signals, so a secret another process
changed reaches this process's observers without a read.

The Secret Service tells its clients when an item of a collection was
created, deleted or changed (`org.freedesktop.Secret.Collection`'s
`ItemCreated`, `ItemDeleted`, `ItemChanged`), and the bus tells when the
service's name changes owner (`NameOwnerChanged`: the daemon died, or a new
one took its place). The signals carry only an item's object path, which
says nothing about whose item it is, and a deleted item cannot be asked any
more; so each signal asks every listener (a suite's secrets) to read again
what it holds, in one *pass*. Signals that arrive during a pass ask for one
more pass after it, not one each: a burst of changes costs two passes.

Nothing here blocks a caller. The first listener starts a thread of its own
that connects to the session bus, subscribes, and then only iterates a
`GMainContext` of its own, where GDBus delivers the signals; the passes run
on a serial queue, each read in them bounded by the client's timeout. A
stopped daemon sends no signals and stalls only a pass; readers and writers
never wait for one. No bus, or no libsecret: nothing is subscribed, and
``listen(_:)`` says so.

The subscription names the service by its bus name, not by the daemon's
connection, and no object path: the bus routes the signals of whichever
daemon owns the name now, so a daemon that is killed and started again is
heard without subscribing again, and the default collection may be any of
the daemon's collections. A daemon that came back triggers a pass of its
own, since it may hold other values (another login's keyring) or a locked
one, which reads fail on and memory keeps.

<!-- check: internal -->
```swift
_ = SecretServiceSignals.shared.listen {
	print("a secret may have changed")
}
```
*/
final class SecretServiceSignals: Sendable {
	static let shared = SecretServiceSignals()

	private enum Phase: Equatable {
		case idle
		case connecting
		case listening
		case failed(String)
	}

	private struct State {
		var listeners: [@Sendable () -> Void] = []
		var phase = Phase.idle
		/// A pass was asked for and has not started yet: later signals need no other.
		var isPassPending = false
		var passesStarted = 0
		var passesCompleted = 0
		var ownerChanges = 0
	}

	private let state = Locked(State())
	private let passes = DispatchQueue(label: "Defaults.SecretServiceSignals.passes")

	private static let serviceName = "org.freedesktop.secrets"
	private static let itemSignals: Set<String> = ["ItemCreated", "ItemDeleted", "ItemChanged"]

	/**
	Adds `heard`, to run on the pass queue after each change the service
	tells; starts listening at the first call. Returns `false`, adding
	nothing, when the service cannot be heard (no libsecret, no session bus,
	or listening has failed): changes from other processes are then seen at a
	key's next load only.
	*/
	func listen(_ heard: @escaping @Sendable () -> Void) -> Bool {
		guard case .success(let library) = SecretServiceLibrary.shared, SecretServiceSession.sessionBusAddress() != nil else {
			return false
		}

		let start = state.withLock { state -> Bool? in
			if case .failed = state.phase {
				return nil
			}

			state.listeners.append(heard)
			guard state.phase == .idle else {
				return false
			}

			state.phase = .connecting
			return true
		}
		guard let start else {
			return false
		}

		if start {
			let thread = Thread { Self.listen(library: library) }
			thread.name = "Defaults.SecretServiceSignals"
			thread.start()
		}

		return true
	}

	// MARK: What tests and diagnostics read

	/// Whether the subscription is in place.
	var isListening: Bool {
		state.withLock { $0.phase == .listening }
	}

	/// Why nothing is subscribed, or `nil`.
	var failure: String? {
		state.withLock { state in
			guard case .failed(let reason) = state.phase else {
				return nil
			}

			return reason
		}
	}

	/// How many passes started and how many ended; a pass that started after a moment read every listener's secrets after it once `completed` passes it.
	var passCounts: (started: Int, completed: Int) {
		state.withLock { ($0.passesStarted, $0.passesCompleted) }
	}

	/// How many times the service's name was taken by a new daemon since listening began.
	var ownerChanges: Int {
		state.withLock { $0.ownerChanges }
	}

	// MARK: Passes

	/// Asks for a pass, unless one is already waiting to start.
	func requestPass() {
		let schedule = state.withLock { state -> Bool in
			defer { state.isPassPending = true }
			return !state.isPassPending
		}
		if schedule {
			passes.async { [self] in
				runPass()
			}
		}
	}

	private func runPass() {
		let listeners = state.withLock { state in
			state.isPassPending = false
			state.passesStarted += 1
			return state.listeners
		}
		// No lock of ours is held: the listeners read the store and tell observers.
		for heard in listeners {
			heard()
		}

		state.withLock { $0.passesCompleted += 1 }
	}

	private func heard(_ member: String, parameters: SecretServiceLibrary.Pointer?) {
		if Self.itemSignals.contains(member) {
			requestPass()
			return
		}

		// NameOwnerChanged (name, old owner, new owner), for the service's name only (the subscription's arg0).
		guard member == "NameOwnerChanged", let parameters, case .success(let library) = SecretServiceLibrary.shared else {
			return
		}

		guard let child = library.variantChild(parameters, 2) else {
			return
		}

		defer { library.variantUnref(child) }
		let newOwner = library.variantGetString(child, nil).map { String(cString: $0) } ?? ""
		if !newOwner.isEmpty {
			state.withLock { $0.ownerChanges += 1 }
			requestPass()
		}
	}

	// MARK: The listening thread

	/// Listening failed for good: `reason` is what ``failure`` says, and later calls to ``listen(_:)`` add nothing.
	func fail(_ reason: String) {
		state.withLock { $0.phase = .failed(reason) }
	}

	// Called by GDBus on the listening thread, in its main context; the parameters stay GDBus's.
	private static let onSignal: SecretServiceLibrary.SignalCallback = { _, _, _, _, member, parameters, _ in
		guard let member else {
			return
		}

		shared.heard(String(cString: member), parameters: parameters)
	}

	/// The listening thread's whole life: connect (once a secret call has: see ``SecretServiceSession/waitForFirstConnection()``), subscribe, then deliver signals for as long as the process runs.
	private static func listen(library: SecretServiceLibrary) {
		SecretServiceSession.waitForFirstConnection()
		guard let context = library.mainContextNew() else {
			shared.fail("GLib could not make a main context")
			return
		}

		// Signals are delivered in the main context that was the thread's default when subscribing: this one.
		library.mainContextPushThreadDefault(context)
		var error: SecretServiceLibrary.Pointer?
		// G_BUS_TYPE_SESSION: GLib's shared connection, made already by a call, so this returns at once.
		guard let connection = library.busGet(2, nil, &error) else {
			shared.fail("the session bus does not answer: \(library.takeError(error)?.message ?? "no connection")")
			return
		}

		library.connectionSetExitOnClose(connection, 0)
		let collection = library.signalSubscribe(
			connection, serviceName, "org.freedesktop.Secret.Collection", nil, nil, nil, 0, onSignal, nil, nil
		)
		let owner = library.signalSubscribe(
			connection, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus", serviceName, 0, onSignal, nil, nil
		)
		guard collection != 0, owner != 0 else {
			shared.fail("GDBus refused the subscription")
			return
		}

		shared.state.withLock { $0.phase = .listening }
		while true {
			_ = library.mainContextIteration(context, 1)
		}
	}
}
#endif
