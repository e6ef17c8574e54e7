#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// Blocking work (libgit2's network calls, `flock`, `waitpid`) run on a thread of its own,
/// so that it never holds one of the cooperative pool's few threads (two, on a 2-core machine)
/// while it waits: installs in a task group keep moving while one waits for a lock.
public enum OffPool {
    final class Work: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// `body`'s result, computed on a new thread (or here, if no thread can be started).
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        // The thread runs in the command's process scope, if it has one.
        let scope = ProcessScope.current
        return await withCheckedContinuation { continuation in
            start(Work { continuation.resume(returning: ProcessScope.$current.withValue(scope) { body() }) })
        }
    }

    /// `body`'s result or typed error, computed on a new thread.
    public static func run<T: Sendable, E: Error>(throwing body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await run {
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    static func start(_ work: Work) {
        let context = Unmanaged.passRetained(work).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let started = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
        if started != 0 { Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body() }
    }
}
