import Foundation

/**
The objects of every value layer of a suite, kept in precedence order
(``ValueLayer``'s): ``winner(of:)`` looks through them as a read does, so
the order a read takes is the enum's and is written nowhere else.

A value type with no lock of its own: its owner (``OwnedSuiteValues``)
guards it.

<!-- check: internal -->
```swift
var layers = ValueLayers()
layers.set("dark", forKey: "theme", in: .registered)
layers.set("light", forKey: "theme", in: .stored)
print(layers.winner(of: "theme")!)   // (object: "light", layer: ValueLayer.stored)
```
*/
struct ValueLayers {
	/// One dictionary per layer, at the layer's place in ``ValueLayer/allCases``.
	private var objects = [[String: Any]](repeating: [:], count: ValueLayer.allCases.count)

	/// The objects of `layer`.
	subscript(layer: ValueLayer) -> [String: Any] {
		objects[layer.rawValue]
	}

	/// Sets (`nil`: removes) the object of `name` in `layer`, in place.
	mutating func set(_ object: Any?, forKey name: String, in layer: ValueLayer) {
		objects[layer.rawValue][name] = object
	}

	/// Replaces every object of `layer`.
	mutating func replace(_ layer: ValueLayer, with newObjects: [String: Any]) {
		objects[layer.rawValue] = newObjects
	}

	/// The object a read of `name` finds, from the highest layer that holds one (of those `included`), and that layer.
	func winner(of name: String, among included: (ValueLayer) -> Bool = { _ in true }) -> (object: Any, layer: ValueLayer)? {
		// Most layers are empty in most suites: skipping them spares hashing the name.
		for (place, objects) in objects.enumerated() where !objects.isEmpty {
			if let layer = ValueLayer(rawValue: place), included(layer), let object = objects[name] {
				return (object, layer)
			}
		}

		return nil
	}

	/**
	The winner of `name` once `layer` holds `object` for it (`nil`: nothing):
	the layers above are looked through as ``winner(of:among:)`` does, and
	`layer` is not looked up again, which spares a write one hashing of the
	name.
	*/
	func winner(of name: String, once layer: ValueLayer, holds object: Any?) -> (object: Any, layer: ValueLayer)? {
		for (place, objects) in objects.enumerated() where !objects.isEmpty || place == layer.rawValue {
			guard let candidate = ValueLayer(rawValue: place) else {
				continue
			}

			if candidate == layer {
				if let object {
					return (object, layer)
				}
			} else if let found = objects[name] {
				return (found, candidate)
			}
		}

		return nil
	}
}
