#if canImport(Combine)
import Combine
#elseif Combine && canImport(OpenCombine)
import OpenCombine
#endif
import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

#if canImport(Combine) || (Combine && canImport(OpenCombine))
/// Concurrent writers per round of the cross-thread test: `DEFAULTS_PUBLISHER_WRITES=2000` for a longer run.
private let writesPerThread = TestEnvironment.count("DEFAULTS_PUBLISHER_WRITES", default: 250)

@Suite("Combine: Defaults.publisher, as Defaults 9 documents it")
struct PublisherTests {
	@Test func initialValueThenOneEventPerWrite() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 1, suite: suite.defaults)
		Defaults[key] = 5
		let changes = Recorder<Defaults.KeyChange<Int>>()
		let cancellable = Defaults.publisher(key).sink { changes.append($0) }

		Defaults[key] = 6
		Defaults[key] = 6
		Defaults[key] += 1

		#expect(changes.values == [
			Defaults.KeyChange(isPrior: false, newValue: 5, oldValue: 1),
			Defaults.KeyChange(isPrior: false, newValue: 6, oldValue: 5),
			Defaults.KeyChange(isPrior: false, newValue: 6, oldValue: 6),
			Defaults.KeyChange(isPrior: false, newValue: 7, oldValue: 6),
		])
		cancellable.cancel()
	}

	@Test("an administrator's system-wide file reaches a publisher as it is installed and removed")
	func administratorChangesArrive() async throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let key = Defaults.Key<String>(managed.suite.keyName(), default: "app", suite: managed.suite.defaults)
		let values = Recorder<String>()
		let cancellable = Defaults.publisher(key, options: []).map(\.newValue).sink { values.append($0) }
		defer { cancellable.cancel() }

		try managed.install([key.name: "system"], at: managed.systemWideFile)
		#expect(await eventually { values.values == ["system"] })
		try FileManager.default.removeItem(at: managed.systemWideFile)
		#expect(await eventually { values.values == ["system", "app"] })
	}

	@Test func withoutInitialOnlyWritesArrive() {
		let suite = TestSuite()
		let key = Defaults.Key<String>(suite.keyName(), default: "a", suite: suite.defaults)
		let values = Recorder<String>()
		let cancellable = Defaults.publisher(key, options: []).map(\.newValue).sink { values.append($0) }

		Defaults[key] = "b"

		#expect(values.values == ["b"])
		cancellable.cancel()
	}

	@Test func priorAnnouncesEachChangeBeforeItIsMade() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let storedDuringPrior = Recorder<Int>()
		let changes = Recorder<Defaults.KeyChange<Int>>()
		let cancellable = Defaults.publisher(key, options: [.initial, .prior]).sink { change in
			if change.isPrior {
				storedDuringPrior.append(Defaults[key])
			}
			changes.append(change)
		}

		Defaults[key] = 3

		#expect(changes.values == [
			Defaults.KeyChange(isPrior: false, newValue: 0, oldValue: 0),
			Defaults.KeyChange(isPrior: true, newValue: 3, oldValue: 0),
			Defaults.KeyChange(isPrior: false, newValue: 3, oldValue: 0),
		])
		#expect(storedDuringPrior.values == [0])
		cancellable.cancel()
	}

	@Test func removeDuplicatesKeepsOnlyChangedValues() {
		let suite = TestSuite()
		let key = Defaults.Key<Bool>(suite.keyName(), default: false, suite: suite.defaults)
		let values = Recorder<Bool>()
		let cancellable = Defaults.publisher(key)
			.map(\.newValue)
			.removeDuplicates()
			.sink { values.append($0) }

		for value in [false, true, true, false, false, true] {
			Defaults[key] = value
		}

		#expect(values.values == [false, true, false, true])
		cancellable.cancel()
	}

	@Test func resetAndRemoveAllPublishTheDefault() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 10, suite: suite.defaults)
		let optional = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		let values = Recorder<Int>()
		let optionals = Recorder<String?>()
		let cancellable = Defaults.publisher(key, options: []).map(\.newValue).sink { values.append($0) }
		let optionalCancellable = Defaults.publisher(optional, options: []).map(\.newValue).sink { optionals.append($0) }

		Defaults[key] = 1
		Defaults.reset(key)
		Defaults[key] = 2
		key.reset()
		Defaults[key] = 3
		Defaults[optional] = "x"
		Defaults.removeAll(suite: suite.defaults)

		#expect(values.values == [1, 10, 2, 10, 3, 10])
		#expect(optionals.values == ["x", nil])
		cancellable.cancel()
		optionalCancellable.cancel()
	}

	@Test func severalKeysPublishOnceInitiallyAndOncePerWrite() {
		let suite = TestSuite()
		let first = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let second = Defaults.Key<String>(suite.keyName(), default: "", suite: suite.defaults)
		let unrelated = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let variadic = Recorder<Void>()
		let array = Recorder<Void>()
		let variadicCancellable = Defaults.publisher(keys: first, second).sink { variadic.append(()) }
		let arrayCancellable = Defaults.publisher(keys: [first, second], options: []).sink { array.append(()) }

		Defaults[first] = 1
		Defaults[second] = "a"
		Defaults[unrelated] = 1
		Defaults.reset(first, second)

		#expect(variadic.count == 1 + 4)
		#expect(array.count == 4)
		variadicCancellable.cancel()
		arrayCancellable.cancel()
	}

	@Test func cancellingStopsDeliveryAndReleasesTheSubscription() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let observedKey = ObservedKey(key)
		let values = Recorder<Int>()
		weak var subscription: AnyObject?
		weak var subscriber: ProbeSubscriber<Defaults.KeyChange<Int>>?

		do {
			let probe = ProbeSubscriber<Defaults.KeyChange<Int>>(demand: .unlimited) { values.append($0.newValue) }
			Defaults.publisher(key).subscribe(probe)
			subscription = probe.subscription
			subscriber = probe
			#expect(observedKey.observerCount == 1)

			Defaults[key] = 1
			probe.cancel()
			Defaults[key] = 2
		}

		#expect(values.values == [0, 1])
		#expect(observedKey.observerCount == 0)
		#expect(subscription == nil)
		#expect(subscriber == nil)
	}

	@Test func droppingTheCancellableCancels() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let values = Recorder<Int>()
		var cancellable: AnyCancellable? = Defaults.publisher(key).map(\.newValue).sink { values.append($0) }

		Defaults[key] = 1
		cancellable = nil
		Defaults[key] = 2

		#expect(values.values == [0, 1])
		#expect(ObservedKey(key).observerCount == 0)
		_ = cancellable
	}

	@Test func changesWithoutDemandAreDroppedButTheInitialValueWaits() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let values = Recorder<Int>()
		let probe = ProbeSubscriber<Defaults.KeyChange<Int>>(demand: .none) { values.append($0.newValue) }
		Defaults.publisher(key).subscribe(probe)

		Defaults[key] = 1                 // no demand yet: dropped
		probe.request(.max(2))            // the current value (1), then one change
		Defaults[key] = 2
		Defaults[key] = 3                 // demand used up: dropped
		probe.request(.max(1))
		Defaults[key] = 4

		#expect(values.values == [1, 2, 4])
		probe.cancel()
	}

	@Test func writesFromOtherThreadsArriveOneAtATime() async {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		// Deliberately unsynchronized: Combine requires a subscriber's calls to be serialized,
		// so a lost count (or a thread-sanitizer report) would show overlapping deliveries.
		let counter = UnsynchronizedCounter()
		let threads = 4
		let cancellable = Defaults.publisher(key, options: []).sink { _ in counter.value += 1 }

		await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
			DispatchQueue.global().async {
				DispatchQueue.concurrentPerform(iterations: threads) { thread in
					for step in 0..<writesPerThread {
						Defaults[key] = thread * writesPerThread + step
					}
				}
				done.resume()
			}
		}

		cancellable.cancel()
		#expect(counter.value == threads * writesPerThread)
	}

	@Test func aWriteFromInsideTheSubscriberIsDeliveredAfterItReturns() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let values = Recorder<Int>()
		let depth = UnsynchronizedCounter()
		let maximumDepth = UnsynchronizedCounter()
		let cancellable = Defaults.publisher(key).map(\.newValue).sink { value in
			depth.value += 1
			maximumDepth.value = max(maximumDepth.value, depth.value)
			values.append(value)
			if value < 3 {
				Defaults[key] = value + 1
			}
			depth.value -= 1
		}

		#expect(values.values == [0, 1, 2, 3])
		#expect(maximumDepth.value == 1)
		cancellable.cancel()
	}

	@Test func keysOfACustomSuiteAreTheirOwn() {
		let suite = TestSuite()
		let other = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<Int>(name, default: 0, suite: suite.defaults)
		let sameNameElsewhere = Defaults.Key<Int>(name, default: 0, suite: other.defaults)
		let values = Recorder<Int>()
		let cancellable = Defaults.publisher(key, options: []).map(\.newValue).sink { values.append($0) }

		Defaults[sameNameElsewhere] = 7
		suite.defaults[key] = 8
		UserDefaults(suiteName: suite.name)![key] = 9   // another object for the same suite

		#expect(values.values == [8, 9])
		cancellable.cancel()
	}

	@Test func changesMadeWithoutPropagationAreNotPublished() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let values = Recorder<Int>()
		let cancellable = Defaults.publisher(key, options: []).map(\.newValue).sink { values.append($0) }

		Defaults.withoutPropagation {
			Defaults[key] = 1
		}
		Defaults[key] = 2

		#expect(values.values == [2])
		cancellable.cancel()
	}
}

/// A subscriber that asks for exactly the demand a test gives it.
private final class ProbeSubscriber<Input>: Subscriber, Cancellable, @unchecked Sendable {
	typealias Failure = Never

	private let initialDemand: Subscribers.Demand
	private let receiveValue: (Input) -> Void
	private(set) var subscription: (any Subscription & AnyObject)?

	init(demand: Subscribers.Demand, receiveValue: @escaping (Input) -> Void) {
		self.initialDemand = demand
		self.receiveValue = receiveValue
	}

	func receive(subscription: any Subscription) {
		self.subscription = subscription as? any Subscription & AnyObject
		if initialDemand > 0 {
			subscription.request(initialDemand)
		}
	}

	func receive(_ input: Input) -> Subscribers.Demand {
		receiveValue(input)
		return .none
	}

	func receive(completion: Subscribers.Completion<Never>) {}

	func request(_ demand: Subscribers.Demand) {
		subscription?.request(demand)
	}

	func cancel() {
		subscription?.cancel()
		subscription = nil
	}
}

private final class UnsynchronizedCounter: @unchecked Sendable {
	var value = 0
}
#endif
