import Foundation

extension Defaults {
	/**
	A running observation. It stops when you call ``invalidate()`` or release it.

	Keep it in a property for as long as you want callbacks, or tie it to the
	lifetime of an object:

	```swift
	final class Settings {
		init() {
			Defaults.observe(.quality) { change in
				print(change.newValue)
			}
			.tieToLifetime(of: self)
		}
	}
	```
	*/
	public protocol Observation: AnyObject {
		/// Stops the observation. Calling it again does nothing.
		func invalidate()

		/**
		Keeps the observation running until `weaklyHeldObject` is deallocated, then stops it.

		The object is held weakly. Returns the observation, so you can keep it too.

		```swift
		final class QualityLabel {
			init() {
				Defaults.observe(.quality) { change in print(change.newValue) }
					.tieToLifetime(of: self)   // stops when the label goes
			}
		}
		```
		*/
		@discardableResult
		func tieToLifetime(of weaklyHeldObject: AnyObject) -> Self

		/**
		Undoes ``tieToLifetime(of:)``: the observation again stops when released.

		```swift
		let label = NSObject()
		let observation = Defaults.observe(.quality) { change in print(change.newValue) }.tieToLifetime(of: label)
		observation.removeLifetimeTie()   // now it stops when `observation` is released
		```
		*/
		func removeLifetimeTie()
	}
}
