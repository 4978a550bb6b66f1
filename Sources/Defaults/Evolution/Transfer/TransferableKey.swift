import Foundation

/// What export and import need from a typed key, whatever its value type.
protocol TransferableKey {
	var name: String { get }

	/// The stored object as JSON a person can read: the value itself when its type is `Encodable` (a `Codable` value as a JSON object), else its stored form.
	func exportedJSON(ofStored object: Any) -> JSONValue?

	/// The stored form of an imported JSON value, checked by decoding it as the key's type; `nil` removes the value (`null` for an optional).
	func storedForm(ofJSON json: JSONValue) throws(TransferProblem) -> PropertyListValue?

	/// The stored form of an imported property-list value, checked the same way.
	func storedForm(ofStored value: PropertyListValue) throws(TransferProblem) -> PropertyListValue?
}
