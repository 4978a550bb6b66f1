import Foundation

/**
Which classes a stored keyed archive may name, and what Foundation needs to
find inside the objects of its own classes.

Foundation on Linux ends the process (instead of failing) when an archived
object of one of its own classes lacks what its `init(coder:)` force-casts
(`NSString` without a string, `NSDictionary` with fewer objects than keys), and
`NSStringFromClass` ends it for any class that is not top level. Everything
here answers those questions without calling the trapping function.
*/
enum KeyedArchiveClasses {
	/// What an archived object of a Foundation class must hold for its `init(coder:)` to finish.
	enum FoundationLayout {
		/// `NS.string` is a string (`NSString.init(coder:)` force-casts it).
		case string
		/// `NS.objects`, when present, is a list of references to objects.
		case objects
		/// `NS.keys` and `NS.objects` are lists of references of the same length.
		case keysAndObjects
		/// Reads only numbers or bytes through non-trapping calls.
		case scalars
	}

	/// The Foundation classes an archive may hold, with the layout their decoding needs. Any other Foundation class is refused.
	private static let foundationClasses: [ObjectIdentifier: FoundationLayout] = [
		ObjectIdentifier(NSString.self): .string,
		ObjectIdentifier(NSMutableString.self): .string,
		ObjectIdentifier(NSArray.self): .objects,
		ObjectIdentifier(NSMutableArray.self): .objects,
		ObjectIdentifier(NSSet.self): .objects,
		ObjectIdentifier(NSMutableSet.self): .objects,
		ObjectIdentifier(NSDictionary.self): .keysAndObjects,
		ObjectIdentifier(NSMutableDictionary.self): .keysAndObjects,
		ObjectIdentifier(NSDate.self): .scalars,
		ObjectIdentifier(NSUUID.self): .scalars,
	]

	/// What a class named in an archive is allowed to be.
	enum Admission {
		/// A Foundation class whose objects must have `layout`.
		case foundation(FoundationLayout)
		/// A class of the application that supports secure coding: its `init(coder:)` is its own.
		case secureCoding
	}

	/// Whether an archive may name `className`, and what its objects must hold; `nil` if it may not.
	static func admission(ofClassNamed className: String) -> (AnyClass, Admission)? {
		guard let type = resolve(className) else {
			return nil
		}

		if let layout = foundationClasses[ObjectIdentifier(type)] {
			return (type, .foundation(layout))
		}

		guard
			!isFoundationClass(type),
			let secureCoding = type as? any NSSecureCoding.Type,
			secureCoding.supportsSecureCoding
		else {
			return nil
		}

		return (type, .secureCoding)
	}

	/// The class for an archived class name, looked up only in the form `NSClassFromString` handles without logging.
	private static func resolve(_ className: String) -> AnyClass? {
		let components = className.split(separator: ".", omittingEmptySubsequences: false)
		guard
			(1...2).contains(components.count),
			components.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isIdentifierCharacter) }),
			!className.hasPrefix("_Tt")
		else {
			return nil
		}

		return NSClassFromString(className)
	}

	private static func isIdentifierCharacter(_ character: Character) -> Bool {
		character.isLetter || character.isNumber || character == "_"
	}

	private static func isFoundationClass(_ type: AnyClass) -> Bool {
		let module = String(reflecting: type).prefix { $0 != "." }
		return module == "Foundation" || module == "FoundationEssentials" || module == "SwiftFoundation"
	}

	/**
	Whether `NSStringFromClass` names `type` without ending the process, and
	`NSClassFromString` finds the class again from that name.

	`NSStringFromClass` accepts only `Module.Class`: a `private` or local class
	(`Module.(unknown context at $…).Class`), a nested class (`Module.Outer.Inner`)
	or a generic one (`Module.Box<Swift.Int>`) traps.
	*/
	static func canBeNamed(_ type: AnyClass) -> Bool {
		for spelling in [_typeName(type, qualified: true), String(reflecting: type)] {
			let components = spelling.split(separator: ".", omittingEmptySubsequences: false)
			guard components.count == 2, components.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isIdentifierCharacter) }) else {
				return false
			}
		}

		return NSClassFromString(NSStringFromClass(type)).map(ObjectIdentifier.init) == ObjectIdentifier(type)
	}

	/// `type` or one of its superclasses is `ancestor`.
	static func isClass(_ type: AnyClass, kindOf ancestor: AnyClass) -> Bool {
		var current: AnyClass? = type
		while let candidate = current {
			if ObjectIdentifier(candidate) == ObjectIdentifier(ancestor) {
				return true
			}

			current = _getSuperclass(candidate)
		}

		return false
	}
}
