import Foundation
import Testing
@testable import Defaults

/// Precedence as the layers' declaration gives it, with no suite or file: the suite's values and the tool's `--show-origin` take it from here.
@Suite struct ValueLayersTests {
	@Test func aReadTakesTheHighestLayerHoldingTheKey() {
		var layers = ValueLayers()
		layers.set("global", forKey: "theme", in: .global)
		#expect(layers.winner(of: "theme", stored: nil, registered: "registered")?.layer == .global)
		#expect(layers.winner(of: "other", stored: nil, registered: "registered")?.layer == .registered)
		layers.replace(.systemWide, with: ["theme": "system-wide"])
		#expect(layers.winner(of: "theme", stored: "stored", registered: "registered")?.layer == .stored)
		layers.set("argument", forKey: "theme", in: .argument)
		layers.replace(.forced, with: ["theme": "forced"])
		#expect(layers.winner(of: "theme", stored: "stored", registered: nil)?.object as? String == "forced")
		#expect(layers.winner(of: "theme", stored: "stored", registered: nil, among: \.isOwn)?.object as? String == "argument")

		layers.replace(.forced, with: [:])
		layers.set(nil, forKey: "theme", in: .argument)
		#expect(layers.winner(of: "theme", stored: "stored", registered: nil)?.object as? String == "stored")
		#expect(layers.winner(of: "missing", stored: nil, registered: nil) == nil)
	}

	/**
	A suite's values keep its stored layer and its registered defaults inside
	the table of winners, and take shortcuts on writes and registrations
	(queued, and ranked at the next access):
	after every change of a long random sequence, what they give matches a
	model that keeps each layer whole and looks every name up by precedence.
	*/
	@Test func everyChangeLeavesWhatTheLayersGiveByPrecedence() {
		let names = ["a", "b", "c", "d"]
		let arguments: [String: Any] = ["b": 10]
		var model: [ValueLayer: [String: Int]] = [.argument: ["b": 10]]
		let values = OwnedSuiteValues(stored: [:], arguments: arguments, global: [:])
		var generator = SystemRandomNumberGenerator()
		let steps = ProcessInfo.processInfo.environment["DEFAULTS_LAYER_STEPS"].flatMap(Int.init) ?? 2_000
		// Keys declared before the file is read: "a"'s default goes beneath its stored value, "c"'s stays what a read finds.
		values.register(100, forKey: "a")
		values.register(101, forKey: "c")
		model[.registered] = ["a": 100, "c": 101]
		values.startStored(from: ["a": .integer(1), "b": .integer(2)])
		model[.stored] = ["a": 1, "b": 2]
		for step in 0..<steps {
			let name = names.randomElement(using: &generator)!
			let number: Int? = Bool.random(using: &generator) ? Int.random(in: 0..<100, using: &generator) : nil
			switch Int.random(in: 0..<5, using: &generator) {
			case 0:
				_ = values.apply(number, to: name) { _, _ in true }
				model[.stored, default: [:]][name] = number
			case 1:
				// Declarations come in bursts, and a suite ranks them at its next access: several, one name twice maybe.
				for _ in 0..<Int.random(in: 1...4, using: &generator) {
					let declared = names.randomElement(using: &generator)!
					let registered = Int.random(in: 100..<200, using: &generator)
					let before = values.currentVersion
					values.register(registered, forKey: declared)
					#expect(values.currentVersion > before, "a registration is a new version, one hidden beneath another layer too")
					model[.registered, default: [:]][declared] = registered
				}
			case 2, 3:
				let layer: ValueLayer = Bool.random(using: &generator) ? .forced : .systemWide
				var replaced = model[layer] ?? [:]
				replaced[name] = number
				_ = values.replace([layer: replaced.mapValues { .integer($0) }])
				model[layer] = replaced
			default:
				var global = model[.global] ?? [:]
				global[name] = number
				_ = values.replaceGlobal(with: global.mapValues { .integer($0) })
				model[.global] = global
			}

			// Looked at after some steps only, so registrations queue across steps and other changes rank them.
			guard Bool.random(using: &generator) || step == steps - 1 else {
				continue
			}

			let winners = ValueLayer.winners(model)
			for name in names {
				let entry = values.entry(forKey: name)
				#expect(entry?.layer == winners[name]?.layer && entry?.object as? Int == winners[name]?.value, "step \(step): \(name)")
				#expect(values.storedObject(forKey: name) as? Int == model[.stored]?[name], "step \(step): stored \(name)")
				#expect(values.ownObject(forKey: name) as? Int == (model[.argument]?[name] ?? model[.stored]?[name]), "step \(step): own \(name)")
				#expect(values.registeredObject(forKey: name) as? Int == model[.registered]?[name], "step \(step): registered \(name)")
			}

			#expect(values.storedValues() == (model[.stored] ?? [:]).mapValues { .integer($0) }, "step \(step)")
			#expect(Set(values.storedNames()) == Set((model[.stored] ?? [:]).keys), "step \(step)")
		}
	}

	/// A suite's values start from its file in one step; every name another layer holds keeps that layer's precedence.
	@Test func valuesStartedFromAFileRankEveryLayerAsAWriteWould() {
		let values = OwnedSuiteValues(stored: [:], arguments: ["fromArgument": 1], global: ["fromGlobal": .string("global"), "onlyGlobal": .string("global")])
		_ = values.replace([.forced: ["forced": .integer(9)]])
		values.startStored(from: ["fromArgument": .integer(5), "fromGlobal": .string("own"), "forced": .integer(2), "plain": .integer(6)])
		#expect(values.entry(forKey: "fromArgument")?.layer == .argument)
		#expect(values.entry(forKey: "fromArgument")?.object as? Int == 1)
		#expect(values.entry(forKey: "fromGlobal")?.layer == .stored)
		#expect(values.entry(forKey: "onlyGlobal")?.layer == .global)
		#expect(values.entry(forKey: "forced")?.object as? Int == 9)
		#expect(values.entry(forKey: "plain")?.object as? Int == 6)
		#expect(values.storedObject(forKey: "forced") as? Int == 2, "the stored value stays under the forced one")
		let version = values.currentVersion
		#expect(version != 0 && Set(["plain", "fromGlobal", "fromArgument", "forced", "onlyGlobal"].compactMap { values.entry(forKey: $0)?.version }).allSatisfy { $0 <= version })

		// Removing the stored value lets the global domain show through again.
		_ = values.apply(nil, to: "fromGlobal") { _, _ in true }
		#expect(values.entry(forKey: "fromGlobal")?.layer == .global)
		#expect(values.currentVersion > version)
	}

	@Test func winnersPickEachKeysHighestLayerInDeclarationOrder() {
		let winners = ValueLayer.winners([
			.global: ["a": 1, "b": 1, "c": 1],
			.stored: ["a": 2, "b": 2],
			.forced: ["a": 3],
		])
		#expect(winners.mapValues(\.layer) == ["a": .forced, "b": .stored, "c": .global])
		#expect(winners.mapValues(\.value) == ["a": 3, "b": 2, "c": 1])
	}

	@Test func eachLayerIsOnePublicOriginAndOneToolName() {
		let file = URL(fileURLWithPath: "/etc/xdg/D.plist")
		#expect(ValueLayer.allCases.map { Defaults.ValueOrigin($0, file: file) } == [
			.forced(file: file), .launchArgument, .stored(file: file), .systemWide(file: file), .globalDomain(file: file), .registeredDefault,
		])
		#expect(ValueLayer.allCases.map(\.name) == ["forced", "launch-argument", "stored", "system-wide", "global-domain", "registered-default"])
		#expect(ValueLayer.allCases.filter(\.configures) == [.forced, .argument, .stored, .systemWide])
		#expect(ValueLayer.administered == [.forced, .systemWide])
	}
}
