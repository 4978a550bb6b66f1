import Foundation

/// One change to one stored key, as raw stored objects (`nil`: nothing stored).
struct RawChange {
	/// The key's name (whole-suite observers hear every key).
	let name: String
	let oldObject: Any?
	let newObject: Any?
	let isPrior: Bool
}
