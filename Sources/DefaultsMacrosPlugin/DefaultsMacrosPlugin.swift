import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct DefaultsMacrosPlugin: CompilerPlugin {
	let providingMacros: [any Macro.Type] = [
		ObservableDefaultMacro.self,
	]
}
