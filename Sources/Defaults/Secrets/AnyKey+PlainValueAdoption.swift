import Foundation

extension Defaults._AnyKey {
	/**
	Moves a plain value of this secret key into its secret store: when the
	store holds nothing for the key and the suite's file holds a value under
	its name (stored before the key was declared `secret: true`, or by a raw
	`UserDefaults` or `defaults write`), the value goes to the store, then is
	removed from the file, so an app that makes a setting secret leaves no
	copy in the clear. Returns the value moved; `nil` when there was none, or
	the store refused it (reported), which leaves the file as it was.

	Observers hear nothing: the key read that value before, and still does.
	*/
	func adoptPlainValue(in suite: Suite) -> PropertyListValue? {
		guard let object = suite.values.storedObject(forKey: name), let value = PropertyListValue(object) else {
			return nil
		}

		do {
			try suite.secrets.change(name, to: value, reporting: true, notifying: false)
		} catch {
			return nil
		}

		Defaults.withoutPropagation {
			_ = suite.change(name, to: nil, origin: .local)
		}

		return value
	}
}
