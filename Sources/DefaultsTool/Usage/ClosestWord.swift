/// The candidate a mistyped word was most likely meant to be, for "did you mean" suggestions.
enum ClosestWord {
	/**
	The candidate fewest edits away (an inserted, removed or replaced letter,
	or two neighbours swapped, as in `raed`), if it is close enough to be a
	typo: at most two edits, and fewer than half the word's letters.
	*/
	static func closest(to word: String, among candidates: [String]) -> String? {
		let typed = Array(word.lowercased())
		let scored = candidates.map { (candidate: $0, distance: distance(typed, Array($0.lowercased()))) }
		guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= min(2, (typed.count - 1) / 2) else {
			return nil
		}

		return best.candidate
	}

	/// The optimal-string-alignment distance: Levenshtein's, with a swap of neighbours counted as one edit.
	private static func distance(_ a: [Character], _ b: [Character]) -> Int {
		var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
		for i in 0...a.count {
			table[i][0] = i
		}

		for j in 0...b.count {
			table[0][j] = j
		}

		for i in stride(from: 1, through: a.count, by: 1) {
			for j in stride(from: 1, through: b.count, by: 1) {
				let cost = a[i - 1] == b[j - 1] ? 0 : 1
				table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
				if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
					table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
				}
			}
		}

		return table[a.count][b.count]
	}
}
