import Foundation

/**
The objects of every value layer of a suite but its stored values, kept in
precedence order (``ValueLayer``'s): ``winner(of:stored:among:)`` looks
through them as a read does, so the order a read takes is the enum's and is
written nowhere else.

The stored layer is the one most suites are made of, so its owner keeps it
with what reads find (``OwnedSuiteValues``), in one table, and hands a name's
stored object in when it asks for a winner.

A value type with no lock of its own: its owner guards it.

<!-- check: internal -->
```swift
var layers = ValueLayers()
layers.set("dark", forKey: "theme", in: .registered)
print(layers.winner(of: "theme", stored: "light")!)   // (object: "light", layer: ValueLayer.stored)
layers.set("sepia", forKey: "theme", in: .argument)
print(layers.winner(of: "theme", stored: "light")!)   // (object: "sepia", layer: ValueLayer.argument)
```
*/
struct ValueLayers {
	/// One dictionary per layer, at the layer's place in ``ValueLayer/allCases``; the stored layer's stays empty.
	private var objects = [[String: Any]](repeating: [:], count: ValueLayer.allCases.count)

	/// The objects of `layer`, which is not `.stored`.
	subscript(layer: ValueLayer) -> [String: Any] {
		assert(layer != .stored, "the stored layer is its owner's")
		return objects[layer.rawValue]
	}

	/// Sets (`nil`: removes) the object of `name` in `layer` (not `.stored`), in place.
	mutating func set(_ object: Any?, forKey name: String, in layer: ValueLayer) {
		assert(layer != .stored, "the stored layer is its owner's")
		objects[layer.rawValue][name] = object
	}

	/// Replaces every object of `layer` (not `.stored`).
	mutating func replace(_ layer: ValueLayer, with newObjects: [String: Any]) {
		assert(layer != .stored, "the stored layer is its owner's")
		objects[layer.rawValue] = newObjects
	}

	/**
	The object a read of `name` finds, from the highest layer that holds one
	(of those `included`), and that layer; `stored` is the name's stored
	object, if any.
	*/
	func winner(of name: String, stored: Any?, among included: (ValueLayer) -> Bool = { _ in true }) -> (object: Any, layer: ValueLayer)? {
		for layer in ValueLayer.allCases where included(layer) {
			if layer == .stored {
				if let stored {
					return (stored, .stored)
				}

				continue
			}

			// Most layers are empty in most suites: skipping them spares hashing the name.
			let objects = objects[layer.rawValue]
			if !objects.isEmpty, let object = objects[name] {
				return (object, layer)
			}
		}

		return nil
	}
}
