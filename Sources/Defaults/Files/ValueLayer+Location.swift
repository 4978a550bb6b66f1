import Foundation

extension ValueLayer {
	/// Where a layer's values are kept: the part that reads them, and the file a value's origin names.
	package enum Location: Equatable, Sendable {
		/// In the running program only (launch arguments, registered defaults): no file holds them.
		case process
		/// The suite's own file in the user's preferences folder, which the suite file reads and writes.
		case preferencesFile
		/// The global domain's file, `.GlobalPreferences.plist` beside the user's files (``GlobalDomain``).
		case globalDomainFile
		/**
		`D.plist` for a domain `D`, in `subfolder` (`nil`: directly) of each
		system configuration folder, most important folder first
		(``AdministratorFiles``, which reads them, and the suite's
		`AdministratorLayers`, which keep them current). `rootOnly`: a file is
		used only when no user but root can change it and its folder.
		*/
		case systemFolders(subfolder: String?, rootOnly: Bool)
	}

	/// The location rule: where this layer's values are kept.
	package var location: Location {
		switch self {
		case .forced:
			.systemFolders(subfolder: AdministratorFiles.forcedFolderName, rootOnly: true)
		case .argument, .registered:
			.process
		case .stored:
			.preferencesFile
		case .systemWide:
			.systemFolders(subfolder: nil, rootOnly: false)
		case .global:
			.globalDomainFile
		}
	}

	/// The layers an administrator's files hold (their location is the system folders), highest first.
	package static let administered: [ValueLayer] = allCases.filter(\.isAdministered)

	/// Whether this layer's values are in an administrator's files.
	package var isAdministered: Bool {
		if case .systemFolders = location {
			return true
		}

		return false
	}
}
