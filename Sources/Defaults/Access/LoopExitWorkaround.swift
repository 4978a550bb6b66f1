import Foundation

// Swift 6.3's loop-invariant code motion never finishes a loop that has no exit when the
// loop copies a value out of memory nothing in it writes: it reports the copy as hoisted
// without moving it and tries again, forever. Every `static let` key is such a value and a
// setter copies its key, so a service's `while true { Defaults[.key] = … }` never compiled
// in release (issue 13). The subscripts' setters are inlined into the caller and end with
// a branch, on a condition the caller cannot see through, to a `Never` call: that gives
// each loop writing a key an exit, and the pass then hoists the copy and finishes.
// Tests/ReleaseBuildCheck (run by scripts/check-release-build) keeps those loops compiling.

extension Defaults {
	/// Always `false`; opaque to the caller, so the branch on it stays (see above).
	@usableFromInline
	@inline(never)
	static func writeEndsCallersLoop() -> Bool {
		false
	}

	/// Never called: the target of the branch that gives a caller's loop its exit.
	@usableFromInline
	static func endCallersLoop() -> Never {
		fatalError("Defaults: unreachable exit of a loop writing a key")
	}
}
