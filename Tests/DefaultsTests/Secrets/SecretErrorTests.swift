import Foundation
import Testing
@testable import Defaults

@Suite("Secret errors: one wording")
struct SecretErrorTests {
	@Test("the Secret Service client's errors are the app's errors, word for word")
	func clientErrorsReadAsTheAppsErrors() {
		let pairs: [(SecretServiceError, Defaults.SecretError)] = [
			(.unavailable(reason: "no session bus"), .unavailable(reason: "no session bus")),
			(.locked, .locked),
			(.timedOut(.milliseconds(1500)), .timedOut(.milliseconds(1500))),
			(.failed(message: "refused"), .failed(reason: "refused")),
		]
		for (client, app) in pairs {
			#expect(client.secretError == app)
			#expect(client.description == app.description)
		}
	}
}
