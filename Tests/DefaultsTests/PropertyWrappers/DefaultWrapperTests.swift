import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private final class PlayerModel {
	@Default var volume: Double
	@Default var name: String?

	init(volume: Defaults.Key<Double>, name: Defaults.Key<String?>) {
		_volume = Default(volume)
		_name = Default(name)
	}
}

private struct PlayerSettings {
	@Default var volume: Double
}

private actor PlayerActor {
	@Default var volume: Double

	init(volume: Defaults.Key<Double>) {
		_volume = Default(volume)
	}

	func louder() -> Double {
		volume += 0.1
		return volume
	}
}

@Suite("@Default outside SwiftUI")
struct DefaultWrapperTests {
	@Test func classReadsAndWritesThroughTheStore() {
		let suite = TestSuite()
		let volume = Defaults.Key<Double>(suite.keyName(), default: 0.5, suite: suite.defaults)
		let name = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		let model = PlayerModel(volume: volume, name: name)

		#expect(model.volume == 0.5)
		model.volume = 0.75
		#expect(Defaults[volume] == 0.75)
		Defaults[volume] = 0.25
		#expect(model.volume == 0.25, "reads the store, not a copy")

		model.name = "Ada"
		#expect(Defaults[name] == "Ada")
		model.name = nil
		#expect(suite.raw(name.name) == nil)
	}

	@Test func structAndLetInstances() {
		let suite = TestSuite()
		let volume = Defaults.Key<Double>(suite.keyName(), default: 0.5, suite: suite.defaults)
		let settings = PlayerSettings(volume: Default(volume))
		settings.volume = 1
		#expect(Defaults[volume] == 1)
	}

	@Test func actorIsolatedUse() async {
		let suite = TestSuite()
		let volume = Defaults.Key<Double>(suite.keyName(), default: 0.5, suite: suite.defaults)
		let player = PlayerActor(volume: volume)
		#expect(await player.louder() == 0.6)
		#expect(Defaults[volume] == 0.6)
	}

	@Test func projectedValueResetsAndReportsDefaultness() {
		let suite = TestSuite()
		let volume = Defaults.Key<Double>(suite.keyName(), default: 0.5, suite: suite.defaults)
		let name = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		let model = PlayerModel(volume: volume, name: name)

		model.volume = 0.9
		#expect(!model.$volume.isDefaultValue)
		model.$volume.reset()
		#expect(model.volume == 0.5)
		#expect(model.$volume.isDefaultValue)
		#expect(model.$volume.key == volume)
	}

	@Test func projectedValueObserves() async {
		let suite = TestSuite()
		let volume = Defaults.Key<Double>(suite.keyName(), default: 0.5, suite: suite.defaults)
		let name = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		let model = PlayerModel(volume: volume, name: name)
		let recorder = Recorder<Double>()

		let observation = model.$volume.observe(options: []) { recorder.append($0.newValue) }
		model.volume = 0.1
		Defaults[volume] = 0.2
		#expect(recorder.values == [0.1, 0.2])
		observation.invalidate()

		var iterator = model.$volume.updates().makeAsyncIterator()
		#expect(await iterator.next() == 0.2)
	}
}
