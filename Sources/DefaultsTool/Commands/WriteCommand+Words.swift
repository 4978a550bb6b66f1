import ArgumentParser

extension WriteCommand {
	/**
	`write`'s words, split by hand: its values may start with `-` (`-5`, or
	any text after `-string`), so the generic parser cannot tell them from options.

	Before the domain and key, a word that starts with `-` is an option
	(`-h`/`--help`, `-g`/`-globalDomain`, `--path <file>`) or `--`, after which
	the domain and key are taken as they are; macOS's `-currentHost`, `-host`
	and `-app` are refused as not supported on Linux, and any other such word
	is refused too, so a mistyped option never becomes a domain file. The words after the key
	go to ``ValueParser``.
	*/
	struct Words {
		var path: String?
		var globalDomain = false
		/// The domain (unless `-g` or `--path` chose the file) and the key, then the value words.
		var operands: [String] = []

		init(_ words: [String], path: String?, globalDomain: Bool) throws {
			self.path = path
			self.globalDomain = globalDomain
			// Options the argument parser already took, so a suggested correction keeps them.
			let taken = (globalDomain ? ["-g"] : []) + (path.map { ["--path", $0] } ?? [])
			let all = taken + words
			var words = all[taken.count...]
			var optionsEnded = false
			while operands.count < targetOperandCount + 1, let word = words.popFirst() {
				guard !optionsEnded, word.hasPrefix("-"), word != "-" else {
					operands.append(word)
					continue
				}

				switch word {
				case "--":
					optionsEnded = true
				case "-h", "--help", "-help":
					throw CleanExit.helpRequest(WriteCommand.self)
				case "-g", "-globalDomain", "--globalDomain":
					self.globalDomain = true
				case "--path":
					guard let value = words.popFirst() else {
						throw ToolError.missingOperand("file after --path", usage: WriteCommand.usage)
					}

					self.path = value
				case _ where word.hasPrefix("--path="):
					self.path = String(word.dropFirst("--path=".count))
				default:
					if let option = MacOSOnlyOption(rawValue: word) {
						throw ToolError.notSupportedOnLinux(option)
					}

					throw ToolError.optionLike(at: words.startIndex - 1, of: all, command: "write")
				}
			}

			operands += words
		}

		/// How many operands name the file: none with `-g` or `--path`, else the domain.
		private var targetOperandCount: Int {
			path != nil || globalDomain ? 0 : 1
		}
	}
}
