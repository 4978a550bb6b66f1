import Foundation

/**
What one write meets under the values' lock, decided in one place
(``Suite/admit(_:to:isForced:origin:isWithinBudget:backing:)``): refused
because an administrator forces the key, refused with a diagnostic (a value
nesting deeper than any file the library reads back, or growth past the size
budget), or accepted, with the size warning it crossed and the flush its
pending change asks for. ``Suite/change(_:to:origin:isWithinBudget:)`` only
carries it out.
*/
enum WriteAdmission {
	/// An administrator forces the key: the write is refused and reported as such.
	case refusedAsForced
	/// The write is refused for the reason `diagnostic` says.
	case refused(Defaults.Diagnostic)
	/// The write is made, and recorded by the suite's backing: `flush` is what that asks of it; `warning`: a size threshold it crossed.
	case accepted(warning: Defaults.Diagnostic?, flush: FlushPolicy.Action)

	var isAccepted: Bool {
		if case .accepted = self {
			return true
		}

		return false
	}
}

extension Suite {
	/**
	Decides whether the write of `name` to `value` is made, under the values'
	lock (`isForced` is read under it), and has `backing` record an accepted
	one: in the size account and as a pending change. A value pulled from the
	remote (`origin` `.synced`) is stored under the forced one: other machines
	sync it, this one keeps what it is forced to. `isWithinBudget`: a change of
	a commit checked as a whole and counted already.
	*/
	func admit(_ name: String, to value: PropertyListValue?, isForced: Bool, origin: ChangeOrigin, isWithinBudget: Bool, backing: any SuiteBacking) -> WriteAdmission {
		if isForced, origin == .local {
			return .refusedAsForced
		}

		if let value, value.nestsDeeper(than: BinaryPropertyListReader.maximumValueNesting) {
			return .refused(tooDeeplyNested(name))
		}

		return backing.admit(name, to: value, isWithinBudget: isWithinBudget)
	}

	/// Reports why the write of `name` was refused, as `admission` says (`nil`: never decided, nothing to say).
	func reportRefusal(_ admission: WriteAdmission?, of name: String) {
		switch admission {
		case .refusedAsForced?:
			let file = administrator?.file(of: name, in: .forced).map { " (\($0.path))" } ?? ""
			DiagnosticReporter.report(
				.forcedValue,
				key: name,
				suite: displayName,
				"'\(name)' of suite '\(displayName)' is forced by an administrator\(file): the write was refused, and the value stays the forced one"
			)
		case .refused(let diagnostic)?:
			DiagnosticReporter.report(diagnostic)
		case .accepted?, nil:
			break
		}
	}

	/// The refusal of a value nesting deeper than any file the library reads back.
	private func tooDeeplyNested(_ name: String) -> Defaults.Diagnostic {
		Defaults.Diagnostic(
			kind: .unencodableValue,
			key: name,
			message: "the value of '\(name)' nests containers more than \(BinaryPropertyListReader.maximumValueNesting) levels deep, deeper than a preferences file the library reads back; nothing was written",
			suite: displayName
		)
	}
}
