import Defaults

/// A `Codable` secret: what the secrets' tests store beside a `String` one, and what bytes of another shape fail to decode as.
struct Login: Codable, Hashable, Defaults.Serializable {
	var user: String
	var password: String
}
