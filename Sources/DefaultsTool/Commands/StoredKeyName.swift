import Defaults

/**
The names the tool stores values under, checked with the library's one rule
(`KeyName.problem(storing:)`) before the file is locked: `write`'s key,
`rename`'s new name, and every name of an `import` or of a whole domain
written as a dictionary, in any domain, the global one or a file given by
its path.

A name the library's import and export refuse (`a.b`, `@x`, one that is not
ASCII, or empty) never gets into a file that way: no key could read it, an
export of the suite would leave it out, and an import would refuse it. A name already in a
file (another program wrote it) can still be read, renamed and deleted.
*/
enum StoredKeyName {
	/// Refuses the first of `names`, in sorted order, that the library refuses.
	static func check(_ names: some Sequence<String>) throws {
		for name in names.sorted() {
			if let problem = KeyName.problem(storing: name) {
				throw ToolError.invalidKeyName(name, reason: problem)
			}
		}
	}
}
