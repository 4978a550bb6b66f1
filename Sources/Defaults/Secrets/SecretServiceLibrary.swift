#if os(Linux)
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
libsecret and the GLib functions the Secret Service client calls, loaded at
run time with `dlopen`.

The `Defaults` product must build and run on a machine without libsecret
(a server, a container, a build machine): linking it would make the library
refuse to load there, and a package trait with a system-library target would
make every app choose at build time. Loading it when the first secret is
asked for keeps both: a machine without it answers
``SecretServiceError/unavailable(reason:)`` in microseconds.

The functions are looked up once, in the first call of ``shared``, and never
change: the value is immutable and every function it holds is thread-safe by
GLib's and libsecret's contracts (the `_sync` calls run their own main
context), which is why it is `Sendable`.
*/
struct SecretServiceLibrary: Sendable {
	typealias Pointer = UnsafeMutableRawPointer
	typealias ErrorOut = UnsafeMutablePointer<Pointer?>
	typealias StringHash = @convention(c) (UnsafeRawPointer?) -> UInt32
	typealias StringEqual = @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?) -> Int32
	typealias DestroyNotify = @convention(c) (Pointer?) -> Void

	// libsecret
	let serviceGet: @convention(c) (UInt32, Pointer?, ErrorOut?) -> Pointer?
	let serviceDisconnect: @convention(c) () -> Void
	let serviceSearch: @convention(c) (Pointer, Pointer?, Pointer?, UInt32, Pointer?, ErrorOut?) -> Pointer?
	let serviceStore: @convention(c) (Pointer, Pointer?, Pointer, UnsafePointer<CChar>?, UnsafePointer<CChar>, Pointer, Pointer?, ErrorOut?) -> Int32
	let serviceClear: @convention(c) (Pointer, Pointer?, Pointer, Pointer?, ErrorOut?) -> Int32
	let schemaNew: @convention(c) (UnsafePointer<CChar>, UInt32, Pointer) -> Pointer?
	let schemaUnref: @convention(c) (Pointer) -> Void
	let valueNew: @convention(c) (UnsafeRawPointer, Int, UnsafePointer<CChar>) -> Pointer?
	let valueGet: @convention(c) (Pointer, UnsafeMutablePointer<Int>) -> UnsafeRawPointer?
	let valueUnref: @convention(c) (Pointer) -> Void
	let itemGetSecret: @convention(c) (Pointer) -> Pointer?
	let itemGetLocked: @convention(c) (Pointer) -> Int32

	// GLib, GObject, GIO (dependencies of libsecret, found through its handle)
	let hashTableNew: @convention(c) (StringHash, StringEqual, DestroyNotify?, DestroyNotify?) -> Pointer?
	let hashTableInsert: @convention(c) (Pointer, Pointer?, Pointer?) -> Int32
	let hashTableUnref: @convention(c) (Pointer) -> Void
	let stringHash: StringHash
	let stringEqual: StringEqual
	let free: DestroyNotify
	let duplicate: @convention(c) (UnsafePointer<CChar>) -> Pointer?
	let listFree: @convention(c) (Pointer?) -> Void
	let errorFree: @convention(c) (Pointer) -> Void
	let objectRef: @convention(c) (Pointer) -> Pointer?
	let objectUnref: @convention(c) (Pointer) -> Void
	let cancellableNew: @convention(c) () -> Pointer?
	let cancellableCancel: @convention(c) (Pointer) -> Void
	let busGet: @convention(c) (Int32, Pointer?, ErrorOut?) -> Pointer?
	let connectionSetExitOnClose: @convention(c) (Pointer, Int32) -> Void
	let connectionCall: @convention(c) (
		Pointer, UnsafePointer<CChar>?, UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>,
		Pointer?, Pointer?, UInt32, Int32, Pointer?, ErrorOut?
	) -> Pointer?
	let remoteErrorName: @convention(c) (Pointer) -> UnsafeMutablePointer<CChar>?
	let ioErrorQuark: @convention(c) () -> UInt32
	let variantNewString: @convention(c) (UnsafePointer<CChar>) -> Pointer?
	let variantNewObjectPaths: @convention(c) (UnsafePointer<UnsafePointer<CChar>?>, Int) -> Pointer?
	let variantNewTuple: @convention(c) (UnsafePointer<Pointer?>, Int) -> Pointer?
	let variantChild: @convention(c) (Pointer, Int) -> Pointer?
	let variantGetVariant: @convention(c) (Pointer) -> Pointer?
	let variantGetBoolean: @convention(c) (Pointer) -> Int32
	let variantGetString: @convention(c) (Pointer, UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>?
	let variantUnref: @convention(c) (Pointer) -> Void

	// Hearing the service's signals (SecretServiceSignals)
	typealias SignalCallback = @convention(c) (
		Pointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Pointer?, Pointer?
	) -> Void
	let mainContextNew: @convention(c) () -> Pointer?
	let mainContextPushThreadDefault: @convention(c) (Pointer) -> Void
	let mainContextIteration: @convention(c) (Pointer, Int32) -> Int32
	let signalSubscribe: @convention(c) (
		Pointer, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
		UInt32, SignalCallback, Pointer?, DestroyNotify?
	) -> UInt32

	/// The library, loaded on first use, or why it could not be.
	static let shared: Result<SecretServiceLibrary, SecretServiceError> = load()

	private static func load() -> Result<SecretServiceLibrary, SecretServiceError> {
		guard let handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL) else {
			let message = dlerror().map { String(cString: $0) } ?? "not found"
			return .failure(.unavailable(reason: "libsecret is not installed (\(message))"))
		}

		// GLib's libraries are libsecret's dependencies, so its handle finds their symbols; opening them by
		// name as well is a fallback for a libsecret linked in an unusual way. Neither handle is ever closed.
		let names = ["libgio-2.0.so.0", "libgobject-2.0.so.0", "libglib-2.0.so.0"]
		let dependencies = names.compactMap { name -> UnsafeMutableRawPointer? in dlopen(name, RTLD_NOW | RTLD_LOCAL) }
		struct MissingSymbol: Error {
			let name: String
		}

		func symbol<Function>(_ name: String, as _: Function.Type = Function.self) throws(MissingSymbol) -> Function {
			guard let address = dlsym(handle, name) ?? dependencies.lazy.compactMap({ dlsym($0, name) }).first else {
				throw MissingSymbol(name: name)
			}

			return unsafeBitCast(address, to: Function.self)
		}

		let library: SecretServiceLibrary
		do {
			library = try SecretServiceLibrary(
				serviceGet: symbol("secret_service_get_sync"),
				serviceDisconnect: symbol("secret_service_disconnect"),
				serviceSearch: symbol("secret_service_search_sync"),
				serviceStore: symbol("secret_service_store_sync"),
				serviceClear: symbol("secret_service_clear_sync"),
				schemaNew: symbol("secret_schema_newv"),
				schemaUnref: symbol("secret_schema_unref"),
				valueNew: symbol("secret_value_new"),
				valueGet: symbol("secret_value_get"),
				valueUnref: symbol("secret_value_unref"),
				itemGetSecret: symbol("secret_item_get_secret"),
				itemGetLocked: symbol("secret_item_get_locked"),
				hashTableNew: symbol("g_hash_table_new_full"),
				hashTableInsert: symbol("g_hash_table_insert"),
				hashTableUnref: symbol("g_hash_table_unref"),
				stringHash: symbol("g_str_hash"),
				stringEqual: symbol("g_str_equal"),
				free: symbol("g_free"),
				duplicate: symbol("g_strdup"),
				listFree: symbol("g_list_free"),
				errorFree: symbol("g_error_free"),
				objectRef: symbol("g_object_ref"),
				objectUnref: symbol("g_object_unref"),
				cancellableNew: symbol("g_cancellable_new"),
				cancellableCancel: symbol("g_cancellable_cancel"),
				busGet: symbol("g_bus_get_sync"),
				connectionSetExitOnClose: symbol("g_dbus_connection_set_exit_on_close"),
				connectionCall: symbol("g_dbus_connection_call_sync"),
				remoteErrorName: symbol("g_dbus_error_get_remote_error"),
				ioErrorQuark: symbol("g_io_error_quark"),
				variantNewString: symbol("g_variant_new_string"),
				variantNewObjectPaths: symbol("g_variant_new_objv"),
				variantNewTuple: symbol("g_variant_new_tuple"),
				variantChild: symbol("g_variant_get_child_value"),
				variantGetVariant: symbol("g_variant_get_variant"),
				variantGetBoolean: symbol("g_variant_get_boolean"),
				variantGetString: symbol("g_variant_get_string"),
				variantUnref: symbol("g_variant_unref"),
				mainContextNew: symbol("g_main_context_new"),
				mainContextPushThreadDefault: symbol("g_main_context_push_thread_default"),
				mainContextIteration: symbol("g_main_context_iteration"),
				signalSubscribe: symbol("g_dbus_connection_signal_subscribe")
			)
		} catch {
			return .failure(.unavailable(reason: "libsecret lacks \(error.name) (libsecret 0.18 or later is needed)"))
		}

		return .success(library)
	}
}

// MARK: GLib values

extension SecretServiceLibrary {
	/// A `GError`'s fields, read at their C offsets (`GQuark domain; gint code; gchar *message;`).
	struct GLibError {
		let domain: UInt32
		let code: Int32
		let message: String
		/// The D-Bus error name for an error the other side sent (`org.freedesktop.DBus.Error.ServiceUnknown`), or `nil`.
		let remoteName: String?
	}

	/// Reads and frees the `GError` a call set, if any.
	func takeError(_ error: Pointer?) -> GLibError? {
		guard let error else {
			return nil
		}

		defer { errorFree(error) }
		let message = error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? "unknown error"
		var remoteName: String?
		if let name = remoteErrorName(error) {
			remoteName = String(cString: name)
			free(name)
		}

		return GLibError(
			domain: error.load(fromByteOffset: 0, as: UInt32.self),
			code: error.load(fromByteOffset: 4, as: Int32.self),
			message: message,
			remoteName: remoteName
		)
	}

	/// A `GHashTable` of strings to strings (`g_free`d keys and values), to be released with `hashTableUnref`.
	func stringTable(_ entries: [(String, String?)]) -> Pointer? {
		guard let table = hashTableNew(stringHash, stringEqual, free, free) else {
			return nil
		}

		for (key, value) in entries {
			_ = hashTableInsert(table, duplicate(key), value.flatMap { duplicate($0) })
		}

		return table
	}

	/// The objects of a `GList` (`gpointer data; GList *next; GList *prev;`), which stay owned by the list.
	func listElements(_ list: Pointer?) -> [Pointer] {
		var elements: [Pointer] = []
		var node = list
		while let current = node {
			if let data = current.load(fromByteOffset: 0, as: Pointer?.self) {
				elements.append(data)
			}

			node = current.load(fromByteOffset: MemoryLayout<Pointer>.size, as: Pointer?.self)
		}

		return elements
	}
}
#endif
