import Foundation

/**
A suite's administrator layers (Linux): every ``ValueLayer/administered``
layer of its domain, the forced values and system-wide defaults
(``AdministratorFiles``), read when the suite is made
and again whenever one of their files is installed, edited or removed, or
the mode or owner of a file or of its folder changes (which decides whether a
forced file is trusted). A file that is a symbolic link is heard through
each link on the way and at its target too, so editing the target or
re-pointing a link reaches the suite as editing the file does.

Each change reaches the suite's values and its observers like another
process's change. A file that exists but cannot be used (it does not parse,
it is a FIFO or too large, or it would force values while a user other than
root can change it) is left out and reported once, and again only when the
reason changes.
*/
final class AdministratorLayers: Sendable {
	let domain: String
	private unowned let suite: Suite
	private let values: OwnedSuiteValues
	private let state = Locked(State())

	private struct State {
		var layers = AdministratorFiles.Layers()
		var reported: [URL: String] = [:]
		/// One per path heard, by path: each administrator file, and the links and targets behind it (the watcher
		/// tells listeners apart by their file, and holds them weakly: dropping one here stops hearing its path).
		var listeners: [String: FileListener] = [:]
	}

	/// How many times one change re-reads the files to hear paths newly found behind links; each round finds a link farther.
	private static let maximumRounds = 8

	/// Reads the layers into `values`, before anything reads the suite; ``watch()`` then keeps them current.
	init(domain: String, suite: Suite, values: OwnedSuiteValues) {
		self.domain = domain
		self.suite = suite
		self.values = values
		let layers = AdministratorFiles.read(domain: domain)
		_ = values.replace(layers.values)
		state.withLock { $0.layers = layers }
	}

	/// Starts hearing changes to the files; reports files ignored at start.
	func watch() {
		hear(paths: [])
		// Read again now that the files are watched: a change between the first read and the watch would be missed.
		filesDidChange()
		report(state.withLock { $0.layers.ignored })
	}

	/**
	Hears the administrator files and the paths behind them that are links
	(`extra`, from ``AdministratorFiles/pathsBehind(_:)``), and stops hearing
	paths behind links that are gone or point elsewhere now. Returns whether it
	hears a path it did not hear before.
	*/
	@discardableResult
	private func hear(paths extra: [URL]) -> Bool {
		let paths = AdministratorFiles.files(ofDomain: domain) + extra
		let added = state.withLock { state -> [FileListener] in
			var listeners: [String: FileListener] = [:]
			var added: [FileListener] = []
			for path in paths {
				let key = path.standardizedFileURL.path
				guard listeners[key] == nil else {
					continue
				}

				if let listener = state.listeners[key] {
					listeners[key] = listener
				} else {
					let listener = FileListener(path, owner: self)
					listeners[key] = listener
					added.append(listener)
				}
			}

			state.listeners = listeners
			return added
		}

		guard !added.isEmpty else {
			return false
		}

		// Outside the lock: the watcher takes its own. A file's trust depends on its and its folder's mode and owner.
		FileChangeWatcher.shared.watchWithoutCreatingFolders(added, hearing: .attributes)
		return true
	}

	/// The file holding the value of `name` in the administered `layer` (`.forced`: the file that forces it), when there is one.
	func file(of name: String, in layer: ValueLayer) -> URL? {
		state.withLock { $0.layers[layer][name]?.file }
	}

	/// Reads the files again, hears the paths behind any link among them, and delivers what changed.
	fileprivate func filesDidChange() {
		for _ in 0..<Self.maximumRounds {
			let behind = AdministratorFiles.files(ofDomain: domain).flatMap(AdministratorFiles.pathsBehind)
			apply(AdministratorFiles.read(domain: domain))
			// A path newly heard may have changed between that read and its watch: read again until nothing is new.
			guard hear(paths: behind) else {
				return
			}
		}
	}

	/// Makes `layers` the suite's administrator layers, and delivers what changed.
	private func apply(_ layers: AdministratorFiles.Layers) {
		let isNew = state.withLock { state in
			defer { state.layers = layers }
			return state.layers != layers
		}
		guard isNew else {
			return
		}

		let applied = values.replace(layers.values)
		report(layers.ignored)
		for notification in suite.notifications(for: applied) {
			notification.deliver()
		}
	}

	/// Reports each ignored file once per reason.
	private func report(_ ignored: [URL: String]) {
		let fresh = state.withLock { state -> [URL: String] in
			let fresh = ignored.filter { state.reported[$0.key] != $0.value }
			state.reported = ignored
			return fresh
		}

		for (file, reason) in fresh.sorted(by: { $0.key.path < $1.key.path }) {
			DiagnosticReporter.report(
				.ignoredAdministratorFile,
				key: nil,
				suite: domain,
				"\(file.path) \(reason); suite '\(domain)' reads as if that file did not exist until it can be used"
			)
		}
	}

	/// Hears one file for its layers.
	private final class FileListener: FileChangeListener, Sendable {
		let url: URL
		weak let owner: AdministratorLayers?

		init(_ url: URL, owner: AdministratorLayers) {
			self.url = url
			self.owner = owner
		}

		func fileDidChange() {
			owner?.filesDidChange()
		}
	}
}
