#if Postgres
import Defaults
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import Testing

extension PostgresTests {
	/// `defaults fleet read --json`: every type distinct, in the tagged form of the library's JSON export.
	@Suite("defaults fleet against PostgreSQL: exact JSON", .enabled(if: PostgresTestServer.isAvailable))
	struct ToolJSON {
		let namespace = PostgresTestServer.uniqueNamespace("tool-json")

		private func tool(_ arguments: [String]) throws -> ChildProcess.Result {
			try ChildProcess.run("defaults", arguments, environment: PostgresTestServer.toolEnvironment())
		}

		@Test("fleet read --json keeps data, dates and look-alike strings and dictionaries apart, as the library's JSON export tags them")
		func jsonKeepsTypesApart() throws {
			let writes: [[String]] = [
				["when", "-date", "2026-11-22T08:30:00Z"],
				["whenText", "-string", "2026-11-22T08:30:00.000Z"],
				["blob", "-data", "0a1b2c"],
				["blobText", "-string", "Chss"],
				["nested", "-json", #"{"list": [1, "x"], "$date": "2026-11-22T08:30:00.000Z"}"#],
				["lookalike", "-json", #"{"$date": "2026-11-22T08:30:00.000Z"}"#],
			]
			for write in writes {
				let result = try tool(["fleet", "write", "--postgres", "--namespace", namespace] + write)
				#expect(result.status == 0 && result.errorOutput.isEmpty, "\(write): \(result.errorOutput)")
			}

			let read = try tool(["fleet", "read", "--postgres", "--namespace", namespace, "--json"])
			#expect(read.status == 0, "\(read.errorOutput)")
			let object = try #require(try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [String: [String: Any]], "\(read.output)")
			let values = object.compactMapValues { $0["value"] }

			#expect(values["when"] as? [String: String] == ["$date": "2026-11-22T08:30:00.000Z"], "\(read.output)")
			#expect(values["whenText"] as? String == "2026-11-22T08:30:00.000Z", "\(read.output)")
			#expect(values["blob"] as? [String: String] == ["$data": "Chss"], "\(read.output)")
			#expect(values["blobText"] as? String == "Chss", "\(read.output)")
			// A dictionary of two members is no tag; a one-member look-alike gets one more `$`, as in an export.
			#expect((values["nested"] as? [String: Any])?["$date"] as? String == "2026-11-22T08:30:00.000Z", "\(read.output)")
			#expect(values["lookalike"] as? [String: String] == ["$$date": "2026-11-22T08:30:00.000Z"], "\(read.output)")

			// One key alone, and the library's own reading of the tags, give back the stored types.
			let one = try tool(["fleet", "read", "--postgres", "--namespace", namespace, "--json", "blob"])
			let entry = try #require(try JSONSerialization.jsonObject(with: Data(one.output.utf8)) as? [String: Any], "\(one.output)")
			#expect(entry["value"] as? [String: String] == ["$data": "Chss"], "\(one.output)")
			#expect(try StoredValueJSON.decodingTags(.dictionary(["$data": .string("Chss")])) == .data(Data([0x0A, 0x1B, 0x2C])))
		}
	}
}
#endif
