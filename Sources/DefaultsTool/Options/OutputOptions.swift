import ArgumentParser
import Defaults

/// How values are printed.
struct OutputOptions: ParsableArguments {
	@Flag(name: .long, help: "Print JSON instead of the property-list text form (dates as ISO 8601, data as Base64).")
	var json = false

	/// The text of `value` in the chosen format; top-level strings print bare in text form.
	func render(_ value: PropertyListValue) throws -> String {
		json ? try JSONFormat.render(value, pretty: true) : TextFormat.render(value, style: .topLevel)
	}
}
