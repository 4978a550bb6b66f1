import Foundation

/**
The layers a domain's values come from, declared in precedence order,
highest first. This declaration is the only place precedence is written:
the suite's values (``ValueLayers``), the administrator's files
(``AdministratorFiles``), the public `Defaults.ValueOrigin` and the tool's
`read --show-origin` all take their order from it.

A read takes the value of the first layer that holds the key. Where each
layer's values are kept is its ``location``; adding a layer is one case
here, its location rule and its `Defaults.ValueOrigin` case.

<!-- check: internal -->
```swift
let found = ValueLayer.winners([.stored: ["volume": 3], .registered: ["volume": 5, "theme": 1]])
print(found["volume"]!)   // (layer: ValueLayer.stored, value: 3)
```
*/
package enum ValueLayer: Int, CaseIterable, Sendable {
	// Each case's raw value is its place in this list (Swift numbers them as declared), used only as an index (`ValueLayers`).

	/// A value an administrator forces: it overrides everything else.
	case forced
	/// A launch argument (`-name value`): it overrides all but a forced value.
	case argument
	/// The suite's own stored value: the user's setting.
	case stored
	/// A system-wide default an administrator installed for every user.
	case systemWide
	/// The global domain (`.GlobalPreferences.plist`), shared by every suite.
	case global
	/// The default a key of the suite registered.
	case registered

	/// Whether a value from here configures the suite (what a configuration provider reads), rather than being a fallback for keys nobody set.
	package var configures: Bool {
		switch self {
		case .forced, .argument, .stored, .systemWide:
			true
		case .global, .registered:
			false
		}
	}

	/// Whether a value from here is the suite's own: stored in it, or given as a launch argument to override what is stored.
	package var isOwn: Bool {
		switch self {
		case .argument, .stored:
			true
		case .forced, .systemWide, .global, .registered:
			false
		}
	}

	/// The layer's name as the `defaults` tool prints it (`read --show-origin`).
	package var name: String {
		switch self {
		case .forced: "forced"
		case .argument: "launch-argument"
		case .stored: "stored"
		case .systemWide: "system-wide"
		case .global: "global-domain"
		case .registered: "registered-default"
		}
	}

	/// Whether a value from here hides one from `other` (it comes first in the declaration).
	package func precedes(_ other: ValueLayer) -> Bool {
		rawValue < other.rawValue
	}

	/// For each name any of `layers` holds, the value a read finds: the one of the highest layer holding it, and that layer.
	package static func winners<Value>(_ layers: [ValueLayer: [String: Value]]) -> [String: (layer: ValueLayer, value: Value)] {
		var winners: [String: (layer: ValueLayer, value: Value)] = [:]
		for layer in allCases {
			for (name, value) in layers[layer] ?? [:] where winners[name] == nil {
				winners[name] = (layer, value)
			}
		}

		return winners
	}
}
