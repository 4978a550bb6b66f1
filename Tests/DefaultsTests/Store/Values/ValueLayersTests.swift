import Foundation
import Testing
@testable import Defaults

/// Precedence as the layers' declaration gives it, with no suite or file: the suite's values and the tool's `--show-origin` take it from here.
@Suite struct ValueLayersTests {
	@Test func aReadTakesTheHighestLayerHoldingTheKey() {
		var layers = ValueLayers()
		layers.set("registered", forKey: "theme", in: .registered)
		layers.set("global", forKey: "theme", in: .global)
		#expect(layers.winner(of: "theme")?.layer == .global)
		layers.set("stored", forKey: "theme", in: .stored)
		layers.replace(.systemWide, with: ["theme": "system-wide"])
		#expect(layers.winner(of: "theme")?.layer == .stored)
		layers.set("argument", forKey: "theme", in: .argument)
		layers.replace(.forced, with: ["theme": "forced"])
		#expect(layers.winner(of: "theme")?.object as? String == "forced")
		#expect(layers.winner(of: "theme", among: \.isOwn)?.object as? String == "argument")

		layers.replace(.forced, with: [:])
		layers.set(nil, forKey: "theme", in: .argument)
		#expect(layers.winner(of: "theme")?.object as? String == "stored")
		#expect(layers.winner(of: "missing") == nil)
	}

	/// The shortcut a write takes (the layer it sets is not looked up again) finds what the full lookup finds, for every layer and for removals.
	@Test func theWinnerOnceALayerHoldsAValueIsTheFullLookupsWinner() {
		var layers = ValueLayers()
		layers.replace(.forced, with: ["forcedName": "forced"])
		layers.replace(.argument, with: ["argumentName": "argument"])
		layers.replace(.global, with: ["globalName": "global", "theme": "global"])
		layers.set("registered", forKey: "theme", in: .registered)
		for layer in ValueLayer.allCases {
			for name in ["forcedName", "argumentName", "globalName", "theme", "nobody"] {
				for object in ["new", nil] as [String?] {
					var changed = layers
					changed.set(object, forKey: name, in: layer)
					let shortcut = changed.winner(of: name, once: layer, holds: object)
					let full = changed.winner(of: name)
					#expect(shortcut?.layer == full?.layer && shortcut?.object as? String == full?.object as? String, "\(layer) \(name) \(object ?? "nil")")
				}
			}
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
