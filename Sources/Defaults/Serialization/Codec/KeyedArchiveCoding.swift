import Foundation

/**
Keyed archiving and unarchiving that fail instead of trapping.

Writing: `NSKeyedArchiver` calls `NSStringFromClass` on the class of every
object it archives (and on their superclasses), which traps for a class that is
not top level, and it traps for an object that does not support secure coding.
A delegate sees every object before that happens and replaces the first one
that would trap by `nil`; the archive is then thrown away.

Reading: the archive passes ``KeyedArchiveInspector`` first. On Linux,
Foundation's secure-coding check is a `fatalError` ("Value was of unexpected
class") rather than an error, and which class an `init(coder:)` asks for at a
key cannot be known from the archive; so the unarchiver runs without that
check. What it guarded against is kept by the inspector: every class the
archive can make Foundation instantiate supports secure coding (or is one of
the few Foundation classes whose decoding is checked), and the root is of the
expected class. A typed `decodeObject(of:forKey:)` that meets an object of
another class returns `nil`, which `init(coder:)` reports as a failure.
*/
enum KeyedArchiveCoding {
	/// A keyed archive of `value` with secure coding, or `nil` when archiving it would trap.
	static func archive(_ value: NSObject & NSSecureCoding) -> Data? {
		let archiver = NSKeyedArchiver(requiringSecureCoding: true)
		let guardian = ArchivingGuard()
		archiver.delegate = guardian
		archiver.encode(value, forKey: NSKeyedArchiveRootObjectKey)
		archiver.finishEncoding()
		archiver.delegate = nil

		guard guardian.refused == nil, archiver.error == nil else {
			return nil
		}

		return archiver.encodedData
	}

	/// The root object of `archive` if it is a `Value`, else `nil`.
	static func unarchive<Value: NSObject & NSSecureCoding>(_: Value.Type, from archive: Data) -> Value? {
		guard KeyedArchiveInspector.problem(in: archive, expected: Value.self) == nil else {
			return nil
		}

		#if canImport(ObjectiveC)
		return try? NSKeyedUnarchiver.unarchivedObject(ofClass: Value.self, from: archive)
		#else
		guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: archive) else {
			return nil
		}

		unarchiver.decodingFailurePolicy = .setErrorAndReturn
		let root = unarchiver.decodeObject(of: [Value.self], forKey: NSKeyedArchiveRootObjectKey)
		unarchiver.finishDecoding()
		guard unarchiver.error == nil else {
			return nil
		}

		return root as? Value
		#endif
	}
}

/// Sees every object `NSKeyedArchiver` is about to archive and refuses those it would trap on.
private final class ArchivingGuard: NSObject, NSKeyedArchiverDelegate {
	/// The first object refused, described.
	private(set) var refused: String?

	func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any? {
		if refused == nil, let problem = Self.problem(archiving: object) {
			refused = problem
		}

		// Not `nil`: the archiver force-unwraps a `nil` replacement of an object it has not seen. The archive is discarded anyway.
		return refused == nil ? object : ""
	}

	// Required on Linux, where the protocol has no default implementations.
	func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?) {}
	func archiver(_ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?) {}
	func archiverWillFinish(_ archiver: NSKeyedArchiver) {}
	func archiverDidFinish(_ archiver: NSKeyedArchiver) {}

	/// Mirrors the checks `NSKeyedArchiver` makes with `fatalError`.
	private static func problem(archiving object: Any) -> String? {
		if object is String {
			return nil
		}

		guard let instance = object as? NSObject else {
			// Bridged values (numbers, data, dates, collections) become Foundation objects.
			return (object as AnyObject) is NSCoding ? nil : "\(type(of: object)) cannot be archived"
		}

		guard let secureCoding = type(of: instance) as? any NSSecureCoding.Type, secureCoding.supportsSecureCoding else {
			return "\(type(of: instance)) does not support secure coding"
		}

		var archivedClass: AnyClass? = instance.classForKeyedArchiver ?? type(of: instance)
		while let type = archivedClass {
			guard KeyedArchiveClasses.canBeNamed(type) else {
				return "Foundation cannot name \(String(reflecting: type)) (only top-level, non-generic classes can be archived)"
			}

			archivedClass = _getSuperclass(type)
		}

		return nil
	}
}
