import Foundation

/// Why one value cannot be exported or imported.
package struct TransferProblem: Error, CustomStringConvertible {
	/// One line, without the key's name.
	package let reason: String

	package var description: String {
		reason
	}
}
