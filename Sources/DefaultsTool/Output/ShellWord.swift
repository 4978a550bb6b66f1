/// Words the tool suggests typing, quoted for a POSIX shell when they need it.
enum ShellWord {
	static func quoted(_ word: String) -> String {
		let isPlain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
			scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-/:+@%=,".unicodeScalars.contains(scalar))
		}
		return isPlain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
	}
}
