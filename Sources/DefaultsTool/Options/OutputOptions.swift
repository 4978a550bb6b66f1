import ArgumentParser
import Defaults

/// How values are printed.
struct OutputOptions: ParsableArguments {
	@Flag(name: .long, help: "Print JSON instead of text.")
	var json = false

	/// The text of `value` in the chosen format; top-level strings print bare in text form.
	func render(_ value: PropertyListValue) -> String {
		json ? JSONFormat.render(value, pretty: true) : TextFormat.render(value, style: .topLevel)
	}
}
