import Defaults
import Foundation

/**
Runs async work from the tool's synchronous commands: the remote stores are
async, the argument parser's commands and `main` are not. The calling thread
waits; the work runs on the global executor, so nothing it needs is blocked.
*/
enum BlockingTask {
	static func run<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
		let outcome = Locked<Result<Value, any Error>?>(nil)
		let done = DispatchSemaphore(value: 0)
		Task.detached {
			let result: Result<Value, any Error>
			do {
				result = .success(try await body())
			} catch {
				result = .failure(error)
			}

			outcome.withLock { $0 = result }
			done.signal()
		}

		done.wait()
		return try outcome.withLock { $0! }.get()
	}
}
