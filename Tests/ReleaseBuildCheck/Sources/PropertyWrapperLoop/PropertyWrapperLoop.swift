import Defaults
import Foundation

extension Defaults.Keys {
	static let requests = Key<Int>("requests", default: 0)
	static let lastPath = Key<String>("lastPath", default: "/")
}

final class Server {
	@Default(.requests) var requests
	@Default(.lastPath) var lastPath
}

@MainActor let sharedServer = Server()

public func serveForever() -> Never {
	let server = Server()
	while true {
		server.requests += 1
		server.lastPath = "/health"
		sleep(1)
	}
}

@MainActor
public func serveSharedForever() -> Never {
	while true {
		sharedServer.requests += 1
		sharedServer.$requests.reset()
		sleep(1)
	}
}
