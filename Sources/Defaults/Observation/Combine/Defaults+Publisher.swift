#if canImport(Combine)
import Combine
#elseif Combine && canImport(OpenCombine)
import OpenCombine
#endif
import Foundation

#if canImport(Combine) || (Combine && canImport(OpenCombine))
extension Defaults {
	/**
	A publisher of the changes to `key`, for Combine.

	It emits once per write, for every write path (subscripts, `reset`,
	`removeAll`, the property wrappers), like ``observe(_:options:isolation:handler:)``,
	on the thread that made the change. Elements reach a subscriber one at a
	time: a change made while it is still receiving one (from another thread,
	or from inside its own `receive`) is delivered right after, by the thread
	already delivering. With `.initial` (the default) the current value comes
	first, as soon as the subscriber asks for an element; with `.prior` each
	change is also announced before it is made. A change that arrives while
	the subscriber has no demand is dropped. Cancelling stops the observation
	and releases it. Raw `UserDefaults` setters are not observed on Linux:
	write through the key.

	On Apple platforms this is Combine's `AnyPublisher`. Elsewhere it is
	OpenCombine's and needs the package's `Combine` trait
	(`.package(url: …, traits: ["Combine"])`, or `swift build --traits Combine`).
	Code for both imports whichever exists:

	```swift
	import Defaults
	#if canImport(Combine)
	import Combine
	#else
	import OpenCombine
	#endif

	let cancellable = Defaults.publisher(.isUnicornMode)
		.map(\.newValue)
		.removeDuplicates()
		.sink { isUnicornMode in
			print(isUnicornMode)
		}
	```
	*/
	public static func publisher<Value: Serializable>(
		_ key: Key<Value>,
		options: ObservationOptions = [.initial]
	) -> AnyPublisher<KeyChange<Value>, Never> {
		ChangePublisher(
			keys: [ObservedKey(key)],
			options: options,
			current: { KeyChange(isPrior: false, newValue: key.suite[key], oldValue: key.defaultValue) },
			element: { KeyChange($0, key: key) }
		)
		.eraseToAnyPublisher()
	}

	/**
	A publisher that emits every time any of `keys` changes; read the values you need when it does.

	Same delivery rules as ``publisher(_:options:)``; with `.initial` it emits
	once when the subscriber first asks, not once per key.

	```swift
	let cancellable = Defaults.publisher(keys: .quality, .isUnicornMode)
		.sink {
			print("quality or unicorn mode changed")
		}
	```
	*/
	public static func publisher(
		keys: _AnyKey...,
		options: ObservationOptions = [.initial]
	) -> AnyPublisher<Void, Never> {
		publisher(keys: keys, options: options)
	}

	/**
	The array form of `publisher(keys:options:)`, for a list of keys built at run time.

	```swift
	let keys: [Defaults._AnyKey] = [.quality, .isUnicornMode]
	let cancellable = Defaults.publisher(keys: keys).sink { print("one of them changed") }
	```
	*/
	public static func publisher(
		keys: [_AnyKey],
		options: ObservationOptions = [.initial]
	) -> AnyPublisher<Void, Never> {
		ChangePublisher(
			keys: keys.map(ObservedKey.init),
			options: options,
			current: {},
			element: { _ in }
		)
		.eraseToAnyPublisher()
	}
}
#endif
