import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Parses property-list text (old-style, XML or binary) without letting Foundation's parser log to standard error.
enum OldStylePropertyList {
	static func parse(_ data: Data) -> PropertyListValue? {
		// CoreFoundation prints its own multi-line complaint about text it cannot parse;
		// the tool reports the failure itself, in one line.
		withStandardErrorSilenced {
			PropertyListValue.parse(data)
		}
	}

	private static func withStandardErrorSilenced<Result>(_ body: () -> Result) -> Result {
		let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
		guard null >= 0 else {
			return body()
		}

		let saved = dup(STDERR_FILENO)
		dup2(null, STDERR_FILENO)
		close(null)
		defer {
			dup2(saved, STDERR_FILENO)
			close(saved)
		}

		return body()
	}
}
