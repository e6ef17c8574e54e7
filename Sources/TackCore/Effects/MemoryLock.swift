#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// `InMemoryFileSystem`'s lock on one path, as `FileLock`'s `flock` behaves: each value from
/// `lock(at:)` is a holder of its own (two values exclude each other, one value taking it
/// twice still holds it once), released by `unlock` or when the value goes, from whichever
/// thread; one that waits sleeps on a condition.
final class MemoryLock: ExclusiveLock, @unchecked Sendable {
    /// What every value for one path shares.
    final class Slot: @unchecked Sendable {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        let freed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        /// The value that holds it, if any.
        var owner: ObjectIdentifier?
        /// What its last holder wrote (kept after it goes, as a lock file's text is).
        var said: LockHolder?

        init() {
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            freed.initialize(to: pthread_cond_t())
            pthread_cond_init(freed, nil)
        }
        deinit {
            pthread_cond_destroy(freed)
            pthread_mutex_destroy(mutex)
            freed.deallocate()
            mutex.deallocate()
        }
        func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }
    }

    let slot: Slot
    init(slot: Slot) { self.slot = slot }
    deinit { release(forget: false) }

    private var me: ObjectIdentifier { ObjectIdentifier(self) }

    func tryLock() -> Bool {
        slot.locked {
            guard slot.owner == nil || slot.owner == me else { return false }
            slot.owner = me
            return true
        }
    }

    func lock() {
        pthread_mutex_lock(slot.mutex)
        while slot.owner != nil && slot.owner != me { pthread_cond_wait(slot.freed, slot.mutex) }
        slot.owner = me
        pthread_mutex_unlock(slot.mutex)
    }

    func unlock() { release(forget: true) }

    /// Lets go if this value holds it; `forget` clears what it said, as `unlock` empties a
    /// lock file (a value that just goes leaves it, as a killed process does).
    private func release(forget: Bool) {
        let me = self.me
        slot.locked {
            guard slot.owner == me else { return }
            slot.owner = nil
            if forget { slot.said = nil }
            pthread_cond_broadcast(slot.freed)
        }
    }

    func record(_ doing: String) {
        slot.locked { slot.said = LockHolder(pid: getpid(), doing: doing) }
    }

    func holder() -> LockHolder? { slot.locked { slot.said } }
}
