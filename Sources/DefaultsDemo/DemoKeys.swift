import Defaults
import Foundation

struct Window: Codable, Defaults.Serializable {
	var width: Int
	var height: Int
}

enum Theme: String, Defaults.Serializable {
	case light, dark
}

extension Defaults.Keys {
	static let launchCount = Key<Int>("launchCount", default: 0)
	static let theme = Key<Theme>("theme", default: .light)
	static let window = Key<Window>("window", default: Window(width: 800, height: 600))
	static let homepage = Key<URL?>("homepage")
}
