import Foundation

/// What the library's own tests change in a suite: every hook is here, and nothing else uses them.
extension Suite {
	/// Makes the suite of `defaults` use `fileSystem`: from its creation, or from now on.
	static func install(_ fileSystem: any PreferencesFileSystem, for defaults: UserDefaults) {
		let identity = SuiteIdentity.resolve(defaults)
		let existing = registry.withLock { registry in
			registry.fileSystems[identity] = fileSystem
			return registry.byIdentity[identity]
		}

		existing?.install(fileSystem)
	}

	/**
	Makes `UserDefaults` keep the values of `defaults`'s suite, as on Apple
	platforms (the logic of that path runs on Linux too). Call it before the
	suite is first used.
	*/
	static func keepValuesInFoundation(for defaults: UserDefaults) {
		let identity = SuiteIdentity.resolve(defaults)
		_ = registry.withLock { $0.foundationBacked.insert(identity) }
	}

	/// Makes the suite of `defaults` keep its secret keys' values in `store`, from now on, forgetting what it read before.
	static func installSecretStore(_ store: any SecretStore, for defaults: UserDefaults) {
		processWide(defaults).secrets.replaceStore(with: store)
	}

	/// Replaces the file's file system; the new file starts from what is on disk.
	private func install(_ fileSystem: any PreferencesFileSystem) {
		guard let current = file else {
			return
		}

		let replacement = SuiteFile(url: current.url, domainName: current.domainName, suite: self, fileSystem: fileSystem)
		replacement.sizeBudget = current.sizeBudget
		replaceBacking(with: replacement)
		FileChangeWatcher.shared.watch(replacement)
	}
}

extension ObservedKey {
	/// How many observers the key has (whole-suite observers left out): tests check that observations end.
	var observerCount: Int {
		suite.observers.count(of: name)
	}
}
