import Foundation

extension Defaults {
	/**
	Why a secret key's value could not be read, written or removed.

	Each case is one thing the app can act on, and none carries the secret:

	- ``unavailable(reason:)``: there is no secret store to ask (no keyring
	  daemon, no session bus, no libsecret). Trying again will not help until
	  the machine has one; a service gets its secrets as systemd credentials.
	- ``locked``: the keyring is there but locked; the person must unlock it.
	  Never mistaken for "no value", which reads as the key's default.
	- ``timedOut(_:)``: the store did not answer in time (about a second):
	  the call was cancelled; try again later.
	- ``readOnly(credential:)``: the value is a systemd credential, which a
	  service reads and never writes.
	- ``failed(reason:)``: anything else, with the store's message, or a
	  stored value that does not read as the key's type.

	```swift
	extension Defaults.Keys {
		static let apiToken = Key<String?>("apiToken", secret: true)
	}

	do {
		try Defaults.Keys.apiToken.writeSecret("s3cr3t")
	} catch .locked {
		print("Unlock your keyring, then try again")
	} catch {
		print("The token was not saved: \(error)")
	}
	```
	*/
	public enum SecretError: Error, Sendable, Hashable, CustomStringConvertible {
		/// No secret store can be reached: no libsecret, no session bus, no Secret Service on it, or a platform without a backend.
		case unavailable(reason: String)

		/// The keyring (the Secret Service's default collection) is locked.
		case locked

		/// The store did not answer within the timeout; the call was cancelled.
		case timedOut(Duration)

		/// The value comes from the systemd credential at `credential` (a path), which is read-only.
		case readOnly(credential: String)

		/// The store refused or failed, or the stored value does not read as the key's type.
		case failed(reason: String)

		/// One line a person can act on; never the secret.
		public var description: String {
			switch self {
			case .unavailable(let reason):
				"no secret store is available: \(reason)"
			case .locked:
				"the keyring is locked: unlock it (for example in Seahorse), then try again"
			case .timedOut(let timeout):
				"the secret store did not answer within \(Self.seconds(timeout)) s; the call was cancelled"
			case .readOnly(let credential):
				"the value is the systemd credential \(credential), which is read-only: change the service's unit (LoadCredential= or SetCredential=) instead"
			case .failed(let reason):
				"the secret store failed: \(reason)"
			}
		}

		private static func seconds(_ duration: Duration) -> String {
			String(format: "%.3g", duration.timeInterval)
		}
	}
}
