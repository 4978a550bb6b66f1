import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("updates: asynchronous sequences")
struct UpdatesTests {
	@Test func singleKeyYieldsInitialThenChanges() async {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		var values: [Int] = []
		for await value in Defaults.updates(key) {
			values.append(value)
			if value < 3 {
				Defaults[key] = value + 1
			} else {
				break
			}
		}

		#expect(values == [0, 1, 2, 3])
	}

	@Test func withoutInitialStartsAtTheFirstChange() async {
		let suite = TestSuite()
		let key = Defaults.Key<String>(suite.keyName(), default: "start", suite: suite.defaults)
		let stream = Defaults.updates(key, initial: false)
		Defaults[key] = "first"
		var iterator = stream.makeAsyncIterator()
		#expect(await iterator.next() == "first")
	}

	@Test func severalKeysYieldTuples() async {
		let suite = TestSuite()
		let number = Defaults.Key<Int>(suite.keyName(), default: 1, suite: suite.defaults)
		let text = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		var iterator = Defaults.updates(number, text).makeAsyncIterator()

		let first = await iterator.next()
		#expect(first?.0 == 1 && first?.1 == nil)
		Defaults[text] = "x"
		let second = await iterator.next()
		#expect(second?.0 == 1 && second?.1 == "x")
		Defaults[number] = 2
		let third = await iterator.next()
		#expect(third?.0 == 2 && third?.1 == "x")
	}

	@Test func keyArrayYieldsVoid() async {
		let suite = TestSuite()
		let a = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let b = Defaults.Key<Bool>(suite.keyName(), default: false, suite: suite.defaults)
		var iterator = Defaults.updates([a, b], initial: false).makeAsyncIterator()
		Defaults[b] = true
		Defaults[a] = 1
		var count = 0
		while count < 2, await iterator.next() != nil {
			count += 1
		}

		#expect(count == 2)
	}

	@Test func cancellingTheConsumerStopsObserving() async {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let started = AsyncStream<Void>.makeStream()
		let consumer = Task {
			for await _ in Defaults.updates(key) {
				started.continuation.yield()
			}
		}

		var startedIterator = started.stream.makeAsyncIterator()
		await startedIterator.next()
		#expect(ObservedKey(key).observerCount == 1)

		consumer.cancel()
		await consumer.value

		#expect(ObservedKey(key).observerCount == 0)
	}

	@Test func endingTheLoopStopsObserving() async {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		for await _ in Defaults.updates(key) {
			break
		}

		#expect(ObservedKey(key).observerCount == 0)
	}
}
