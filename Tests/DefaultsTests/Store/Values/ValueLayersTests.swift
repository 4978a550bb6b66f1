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
