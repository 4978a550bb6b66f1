/**
Options of macOS's `defaults` that name something Linux does not have, so
the tool refuses them with the reason rather than reading them as a domain.

macOS keeps per-host preferences (`-currentHost`, `-host NAME`) in files of
their own that the system merges into what programs read; Foundation on Linux
reads one file per domain and no such merge exists, so a per-host file would
be read by no program. `-app NAME` finds an application bundle's identifier;
Linux programs have no bundle, and their standard suite is named after the
executable, which the user names directly.
*/
enum MacOSOnlyOption: String {
	case currentHost = "-currentHost"
	case host = "-host"
	case app = "-app"

	/// Why it does not apply, and what to type instead.
	var reason: String {
		switch self {
		case .currentHost:
			"-currentHost (per-host preferences): programs on Linux read one file per domain, whatever the host, so leave it out"
		case .host:
			"-host <name> (another host's preferences): a domain is a file in this user's preferences folder, so leave it out"
		case .app:
			"-app <name> (an application's domain): name the domain instead; a program's standard suite is named after its executable"
		}
	}
}
