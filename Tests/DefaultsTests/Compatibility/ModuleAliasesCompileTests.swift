import DefaultsTestSupport
import Foundation
import Testing

/**
An app that has a type of its own named `Defaults` names the package through
`_Defaults` and `_Default`, as Defaults 9's documentation recommends; apps by
the package's author do so in a file of their own.
*/
private let appWithItsOwnDefaultsName = #"""
	import Defaults
	import Foundation

	typealias Defaults = _Defaults
	typealias Default = _Default

	extension Defaults.Keys {
		static let launchAtLogin = Key<Bool>("launchAtLogin", default: false)
		static let recentFiles = Key<[URL]>("recentFiles", default: [])
	}

	extension _Defaults.Keys {
		static let volume = Key<Double>("volume", default: 0.5)
	}

	struct MenuSettings {
		@Default(.launchAtLogin) var launchAtLogin
		@_Default(.volume) var volume
	}

	func toggle() {
		Defaults[.launchAtLogin].toggle()
		_Defaults.reset(.volume)
		let settings = MenuSettings()
		settings.volume = 0.75
		print(settings.launchAtLogin, Defaults[.recentFiles].count)
	}
	"""#

@Suite("Defaults 9's _Defaults and _Default aliases")
struct ModuleAliasesCompileTests {
	@Test(arguments: ["5", "6"])
	func appDeclaringItsOwnDefaultsNameCompiles(languageMode: String) throws {
		let compiler = try BuildModules.typecheck(appWithItsOwnDefaultsName, languageMode: languageMode)
		#expect(compiler.status == 0, "\(compiler.errorOutput)")
	}
}
