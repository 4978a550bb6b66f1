import Foundation

extension Defaults {
	/**
	Values to give a program through its launch arguments, declared with the
	keys themselves: for driving an app or a command-line tool from its tests.

	Each value is encoded exactly as a write would store it (a `Codable` value
	as its JSON, a `URL` in its Defaults form) and written as a property-list
	element, so Foundation puts it in the argument domain with its type, on
	Linux and on Apple platforms alike. Values Foundation's own argument
	parsing would drop or mangle survive: negative numbers, strings starting
	with `-`, `(`, `{`, `<` or `"`, and strings spanning several lines.

	```swift
	struct Window: Codable, Defaults.Serializable {
		var width: Int
		var height: Int
	}

	extension Defaults.Keys {
		static let window = Key<Window>("window", default: Window(width: 640, height: 480))
	}

	var overrides = Defaults.LaunchArguments()
	overrides[.quality] = 0.5
	overrides[.username] = "-ada-"
	overrides[.window] = Window(width: 800, height: 600)

	// The app under test, as a process (an XCUIApplication's launchArguments in a UI test).
	let app = Process()
	app.executableURL = URL(fileURLWithPath: "/usr/local/bin/my-app")
	app.arguments = try overrides.encoded()
	// ["-quality", "<real>0.5</real>", "-username", "<string>-ada-</string>", "-window", "<string>{…}</string>"]
	```

	In the launched program the keys read these values for the whole run: a
	launch argument takes precedence over the stored value. Writes and
	`reset` still change (and persist) the stored value, but reads go on
	returning the argument until the program is launched without it.
	*/
	public struct LaunchArguments: Sendable, Equatable {
		private var names: [String] = []
		private var values: [String: Result<PropertyListValue, LaunchArgumentError>] = [:]

		/// No arguments yet; give values with the key subscript, then call ``encoded()``.
		public init() {}

		/**
		The value the key is given, or `nil` for no argument.

		Setting an optional key to `.some(nil)` gives no argument either: a launch
		argument cannot hold "nothing".
		*/
		public subscript<Value: Serializable>(key: Key<Value>) -> Value? {
			get {
				guard case .success(let stored) = values[key.name] else {
					return nil
				}

				return try? key.codec.decode(stored.object)
			}
			set {
				guard let newValue else {
					remove(key.name)
					return
				}

				do {
					switch try key.codec.encode(newValue) {
					case .object(let object):
						guard let stored = PropertyListValue(object) else {
							throw SerializationError("\(type(of: object)) is not a property-list value")
						}

						insert(key.name, .success(stored))
					case .absent:
						remove(key.name)
					}
				} catch {
					insert(key.name, .failure(LaunchArgumentError(key: key.name, reason: "\(error)")))
				}
			}
		}

		/// The keys given a value, in the order they were first set.
		public var keyNames: [String] {
			names
		}

		/**
		The arguments: `["-name", "<element>", …]`, in the order the keys were first set.

		Throws for the first value that cannot be stored (the same values a write
		would refuse, such as a `Codable` value holding `Double.nan`).
		*/
		public func encoded() throws(LaunchArgumentError) -> [String] {
			var arguments: [String] = []
			arguments.reserveCapacity(names.count * 2)
			for name in names {
				let stored = try values[name]!.get()
				arguments += ["-\(name)", LaunchArgumentFragment.text(of: stored)]
			}

			return arguments
		}

		/**
		The values as the launched program's argument domain holds them, by key
		name: what an isolated test reads as its launch arguments. Throws for
		the first value that cannot be stored, as ``encoded()`` does.
		*/
		package func storedValues() throws(LaunchArgumentError) -> [String: PropertyListValue] {
			var stored: [String: PropertyListValue] = [:]
			for name in names {
				stored[name] = try values[name]!.get()
			}

			return stored
		}

		private mutating func insert(_ name: String, _ value: Result<PropertyListValue, LaunchArgumentError>) {
			if values.updateValue(value, forKey: name) == nil {
				names.append(name)
			}
		}

		private mutating func remove(_ name: String) {
			if values.removeValue(forKey: name) != nil {
				names.removeAll { $0 == name }
			}
		}
	}

	/**
	A value that cannot be given as a launch argument because it cannot be stored.

	```swift
	var overrides = Defaults.LaunchArguments()
	overrides[.quality] = 0.5
	do {
		print(try overrides.encoded())
	} catch {
		print(error) // the value for 'position' cannot be a launch argument: …
	}
	```
	*/
	public struct LaunchArgumentError: Error, Equatable, CustomStringConvertible {
		/// The key's name.
		public let key: String
		/// Why the value could not be encoded.
		public let reason: String

		public var description: String {
			"the value for '\(key)' cannot be a launch argument: \(reason)"
		}
	}
}
