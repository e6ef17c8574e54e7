import Layout

/// What the user sees, on the main actor: the newest frame laid out off the main thread,
/// drawn as text. `settled(through:)` waits until a given change is on screen.
@MainActor
public final class ItemsScreen {
    public private(set) var frame: Frame?
    public private(set) var text = ""
    /// The change (the store's `lastSeq`) the screen shows.
    public private(set) var version: UInt64 = 0
    /// How many times the screen was drawn.
    public private(set) var draws = 0
    var waiters: [(UInt64, CheckedContinuation<Void, Never>)] = []

    public init() {}

    public func show(_ frame: Frame, version: UInt64) {
        guard self.frame == nil || version >= self.version else { return }
        self.frame = frame
        self.version = version
        text = TextRenderer.draw(frame)
        draws += 1
        let ready = waiters.filter { $0.0 <= version }
        waiters.removeAll { $0.0 <= version }
        for (_, waiter) in ready { waiter.resume() }
    }

    /// What the button at cell (`x`, `y`) asks for, if a button is drawn there.
    public func action(at x: Double, _ y: Double) -> String? { frame?.action(at: x, y) }

    /// Returns once the screen shows change `version` or a later one.
    public func settled(through version: UInt64) async {
        if frame != nil && self.version >= version { return }
        await withCheckedContinuation { waiters.append((version, $0)) }
    }
}
