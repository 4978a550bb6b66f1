#if Postgres
import Defaults

/// Runs `operation`, giving up after `limit`: the caller never waits longer, even when the operation
/// cannot be cancelled (a statement on a stalled connection); such an operation is cancelled and left to finish.
func withDeadline<Value: Sendable>(
	_ limit: Duration,
	onTimeout: @escaping @Sendable () -> any Error,
	_ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
	let outcome = Locked<(waiter: CheckedContinuation<Value, any Error>?, tasks: [Task<Void, Never>])>((nil, []))
	let finish: @Sendable (Result<Value, any Error>) -> Void = { result in
		let (waiter, tasks) = outcome.withLock { state in
			defer { state.waiter = nil }
			return (state.waiter, state.tasks)
		}

		if let waiter {
			tasks.forEach { $0.cancel() }
			waiter.resume(with: result)
		}
	}

	return try await withTaskCancellationHandler {
		try await withCheckedThrowingContinuation { waiter in
			outcome.withLock { $0.waiter = waiter }
			let work = Task {
				do {
					finish(.success(try await operation()))
				} catch {
					finish(.failure(error))
				}
			}
			let timer = Task {
				if (try? await Task.sleep(for: limit)) != nil {
					finish(.failure(onTimeout()))
				}
			}
			outcome.withLock { $0.tasks = [work, timer] }
			// Cancelled before the waiter was in place: the cancellation handler found nothing to resume.
			if Task.isCancelled {
				finish(.failure(CancellationError()))
			}
		}
	} onCancel: {
		finish(.failure(CancellationError()))
	}
}
#endif
