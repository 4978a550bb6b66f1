import Foundation

/**
The objects of the value layers a suite's values keep apart, in precedence
order (``ValueLayer``'s): ``winner(of:stored:registered:among:)`` looks
through every layer as a read does, so the order a read takes is the enum's
and is written nowhere else.

The stored values and the registered defaults are what most suites are made
of, so their owner (``OwnedSuiteValues``) keeps them with what reads find, in
one table, and hands a name's stored object and registered default in when
it asks for a winner; this type keeps the others (forced values, launch
arguments, system-wide defaults, the global domain).

A value type with no lock of its own: its owner guards it.

<!-- check: internal -->
```swift
var layers = ValueLayers()
print(layers.winner(of: "theme", stored: "light", registered: "dark")!)   // (object: "light", layer: ValueLayer.stored)
layers.set("sepia", forKey: "theme", in: .argument)
print(layers.winner(of: "theme", stored: "light", registered: "dark")!)   // (object: "sepia", layer: ValueLayer.argument)
```
*/
struct ValueLayers {
	/// One dictionary per layer, at the layer's place in ``ValueLayer/allCases``; those of the owner's layers stay empty.
	private var objects = [[String: Any]](repeating: [:], count: ValueLayer.allCases.count)

	/// Whether the owner keeps `layer` itself: the stored values and the registered defaults.
	static func isKeptByOwner(_ layer: ValueLayer) -> Bool {
		layer == .stored || layer == .registered
	}

	/// The objects of `layer`, which is not one the owner keeps.
	subscript(layer: ValueLayer) -> [String: Any] {
		assert(!Self.isKeptByOwner(layer), "the owner keeps \(layer)")
		return objects[layer.rawValue]
	}

	/// Sets (`nil`: removes) the object of `name` in `layer` (not one the owner keeps), in place.
	mutating func set(_ object: Any?, forKey name: String, in layer: ValueLayer) {
		assert(!Self.isKeptByOwner(layer), "the owner keeps \(layer)")
		objects[layer.rawValue][name] = object
	}

	/// Replaces every object of `layer` (not one the owner keeps).
	mutating func replace(_ layer: ValueLayer, with newObjects: [String: Any]) {
		assert(!Self.isKeptByOwner(layer), "the owner keeps \(layer)")
		objects[layer.rawValue] = newObjects
	}

	/**
	The object a read of `name` finds, from the highest layer that holds one
	(of those `included`), and that layer; `stored` and `registered` are the
	name's stored object and registered default, if any.
	*/
	func winner(of name: String, stored: Any?, registered: Any?, among included: (ValueLayer) -> Bool = { _ in true }) -> (object: Any, layer: ValueLayer)? {
		for layer in ValueLayer.allCases where included(layer) {
			switch layer {
			case .stored:
				if let stored {
					return (stored, .stored)
				}
			case .registered:
				if let registered {
					return (registered, .registered)
				}
			default:
				// Most layers are empty in most suites: skipping them spares hashing the name.
				let objects = objects[layer.rawValue]
				if !objects.isEmpty, let object = objects[name] {
					return (object, layer)
				}
			}
		}

		return nil
	}
}
