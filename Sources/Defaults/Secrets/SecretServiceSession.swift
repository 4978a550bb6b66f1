#if os(Linux)
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/**
What one client call holds while it talks to the Secret Service: the session
bus connection, the call's deadline, and the few D-Bus and libsecret steps
the client combines. Made by ``connect(call:)`` and closed when the call
ends; never shared between calls or threads.
*/
struct SecretServiceSession {
	/// The default collection as the service tells it.
	enum CollectionState {
		/// No "default" alias: no login keyring.
		case missing
		case locked
		case unlocked
	}

	let call: SecretServiceCall
	let connection: SecretServiceLibrary.Pointer

	var library: SecretServiceLibrary {
		call.library
	}

	private static let busName = "org.freedesktop.secrets"
	// G_BUS_TYPE_SESSION
	private static let sessionBus: Int32 = 2
	// SECRET_SERVICE_OPEN_SESSION
	private static let openSession: UInt32 = 1 << 1
	// G_IO_ERROR_CANCELLED, G_IO_ERROR_TIMED_OUT
	private static let cancelledCode: Int32 = 19
	private static let timedOutCode: Int32 = 24

	/// The session bus's address, or `nil` when the process has none (GLib's own rule: the variable, else `$XDG_RUNTIME_DIR/bus`).
	static func sessionBusAddress() -> String? {
		if let address = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !address.isEmpty {
			return address
		}

		guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty else {
			return nil
		}

		var status = stat()
		let socket = runtime + "/bus"
		guard stat(socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
			return nil
		}

		return "unix:path=\(socket)"
	}

	/// Connects to the session bus (GLib's shared connection), before the deadline.
	static func connect(call: SecretServiceCall) throws(SecretServiceError) -> Self {
		// Without an address GLib would try to launch a bus through X11; there is nothing to wait for.
		guard let address = sessionBusAddress() else {
			throw .unavailable(reason: "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
		}

		let library = call.library
		var error: SecretServiceLibrary.Pointer?
		guard let connection = library.busGet(sessionBus, call.cancellable, &error) else {
			let failure = library.takeError(error)
			if call.didTimeOut {
				throw .timedOut(call.timeout)
			}

			throw .unavailable(reason: "the session bus at \(address) does not answer: \(failure?.message ?? "no connection")")
		}

		// GLib's shared connection ends the process (SIGTERM) when the bus goes away; a library must not.
		library.connectionSetExitOnClose(connection, 0)
		if !hasConnected.exchange(true, ordering: .acquiringAndReleasing) {
			firstConnection.signal()
		}

		return Self(call: call, connection: connection)
	}

	/// Whether a call connected to the session bus once: GLib has made its shared connection, which any thread now gets at once.
	private static let hasConnected = Atomic(false)
	private static let firstConnection = DispatchSemaphore(value: 0)

	/**
	Waits, on a thread nobody waits for, until a call has connected to the
	session bus. Making GLib's shared connection holds a lock that every other
	thread's making of it waits on, and only a call has a deadline: a thread
	without one that makes it first, on a bus that accepts the connection but
	never answers, would block every secret call behind it.
	*/
	static func waitForFirstConnection() {
		firstConnection.wait()
		// For any other thread that waits.
		firstConnection.signal()
	}

	func close() {
		library.objectUnref(connection)
	}

	// MARK: D-Bus steps

	/// Calls `method` on the Secret Service with `arguments` (floating `GVariant`s, consumed); returns the reply, to be unreferenced.
	func callService(_ path: String, interface: String, method: String, arguments: [SecretServiceLibrary.Pointer?]) throws(SecretServiceError) -> SecretServiceLibrary.Pointer {
		let parameters = arguments.withUnsafeBufferPointer { library.variantNewTuple($0.baseAddress!, $0.count) }
		var error: SecretServiceLibrary.Pointer?
		let reply = library.connectionCall(
			connection, Self.busName, path, interface, method, parameters, nil, 0, call.remainingMilliseconds, call.cancellable, &error
		)
		if let failure = library.takeError(error) {
			throw mapped(failure)
		}

		guard let reply else {
			throw .failed(message: "\(interface).\(method) answered nothing")
		}

		return reply
	}

	/// The object path of the default collection, or `nil` when the service has none.
	func defaultCollectionPath() throws(SecretServiceError) -> String? {
		let reply = try callService(
			"/org/freedesktop/secrets",
			interface: "org.freedesktop.Secret.Service",
			method: "ReadAlias",
			arguments: [library.variantNewString("default")]
		)
		defer { library.variantUnref(reply) }
		guard let child = library.variantChild(reply, 0) else {
			throw .failed(message: "ReadAlias answered no path")
		}

		defer { library.variantUnref(child) }
		let path = library.variantGetString(child, nil).map { String(cString: $0) } ?? "/"
		return path == "/" ? nil : path
	}

	/// Whether there is a default collection and whether it is locked, read from the service (never a cached property).
	func defaultCollection() throws(SecretServiceError) -> CollectionState {
		guard let path = try defaultCollectionPath() else {
			return .missing
		}

		let reply = try callService(
			path,
			interface: "org.freedesktop.DBus.Properties",
			method: "Get",
			arguments: [library.variantNewString("org.freedesktop.Secret.Collection"), library.variantNewString("Locked")]
		)
		defer { library.variantUnref(reply) }
		guard let boxed = library.variantChild(reply, 0) else {
			throw .failed(message: "the collection's Locked property has no value")
		}

		defer { library.variantUnref(boxed) }
		guard let locked = library.variantGetVariant(boxed) else {
			throw .failed(message: "the collection's Locked property has no value")
		}

		defer { library.variantUnref(locked) }
		return library.variantGetBoolean(locked) == 0 ? .unlocked : .locked
	}

	// MARK: libsecret steps

	/// The attributes of the item of `key` in `suite`: a `GHashTable` to be released with `hashTableUnref`.
	func attributes(suite: String, key: String) throws(SecretServiceError) -> SecretServiceLibrary.Pointer {
		guard let table = library.stringTable([("suite", suite), ("key", key)]) else {
			throw .failed(message: "GLib could not make a hash table")
		}

		return table
	}

	/// Runs `body` with libsecret's shared `SecretService`, opened with an encrypted session on first use.
	func withService<Result>(_ body: (SecretServiceLibrary.Pointer) throws(SecretServiceError) -> Result) throws(SecretServiceError) -> Result {
		var error: SecretServiceLibrary.Pointer?
		let service = library.serviceGet(Self.openSession, call.cancellable, &error)
		if let failure = library.takeError(error) {
			throw mapped(failure)
		}

		guard let service else {
			throw .failed(message: "libsecret opened no service")
		}

		defer { library.objectUnref(service) }
		return try body(service)
	}

	// MARK: Errors

	/// The client's error for a GLib error of this call.
	func mapped(_ error: SecretServiceLibrary.GLibError) -> SecretServiceError {
		if call.didTimeOut {
			return .timedOut(call.timeout)
		}

		let isIOError = error.domain == library.ioErrorQuark()
		switch error.remoteName {
		case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
			return .unavailable(reason: "no Secret Service on the session bus (\(error.message))")
		case let name? where name.hasPrefix("org.freedesktop.DBus.Error.Spawn"):
			return .unavailable(reason: "the Secret Service could not be started (\(error.message))")
		case "org.freedesktop.DBus.Error.Timeout":
			return .timedOut(call.timeout)
		case "org.freedesktop.DBus.Error.NoReply":
			// Before our deadline (the bus's own is 25 s): the daemon left the bus during the call.
			return .failed(message: "the Secret Service went away during the call (\(error.message))")
		case "org.freedesktop.Secret.Error.IsLocked":
			return .locked
		default:
			break
		}

		if isIOError, error.code == Self.timedOutCode || error.code == Self.cancelledCode {
			return .timedOut(call.timeout)
		}

		return .failed(message: error.message)
	}
}
#endif
