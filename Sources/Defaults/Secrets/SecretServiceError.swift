import Foundation

/**
Why the Secret Service could not read, write or remove a secret.

Each case is one thing a caller can act on: `unavailable` (no library, no
session bus, no service: the machine has no keyring, and trying again will
not help until it has one), `locked` (the keyring is there but locked: the
person must unlock it; told apart from "no value", which is `nil`),
`timedOut` (the daemon did not answer in time: try again later), `failed`
(anything else, with the store's own message).
*/
package enum SecretServiceError: Error, Sendable, Equatable, CustomStringConvertible {
	/// No libsecret, no session bus, or no Secret Service on the bus.
	case unavailable(reason: String)

	/// The default collection (the login keyring) is locked.
	case locked

	/// The daemon did not answer within the client's timeout; the call was cancelled.
	case timedOut(Duration)

	/// The Secret Service refused or failed, with its message.
	case failed(message: String)

	package var description: String {
		switch self {
		case .unavailable(let reason):
			"The Secret Service is unavailable: \(reason)"
		case .locked:
			"The keyring (the Secret Service's default collection) is locked: unlock it, then try again"
		case .timedOut(let timeout):
			"The Secret Service did not answer within \(Self.seconds(timeout)) s: the call was cancelled"
		case .failed(let message):
			"The Secret Service failed: \(message)"
		}
	}

	private static func seconds(_ duration: Duration) -> String {
		String(format: "%.3g", duration.timeInterval)
	}
}
