import Foundation

/**
Why the Secret Service client could not read, write or remove a secret: the
cases of ``Defaults/SecretError`` a keyring can have, which gives each its
meaning and its wording (``secretError``), so the client and the app's error
never say one failure two ways.

The client keeps a type of its own because its calls can fail in no other
way: never ``Defaults/SecretError/readOnly(credential:)``, which is a
systemd credential's.

<!-- check: internal -->
```swift
let error = SecretServiceError.timedOut(.milliseconds(1500))
print(error) // the secret store did not answer within 1.5 s; the call was cancelled
```
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

	/// The same failure as the app sees it.
	package var secretError: Defaults.SecretError {
		switch self {
		case .unavailable(let reason):
			.unavailable(reason: reason)
		case .locked:
			.locked
		case .timedOut(let timeout):
			.timedOut(timeout)
		case .failed(let message):
			.failed(reason: message)
		}
	}

	package var description: String {
		secretError.description
	}
}
