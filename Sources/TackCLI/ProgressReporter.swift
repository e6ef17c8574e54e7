import Foundation
import TackCore

/// Install progress on stderr. At a terminal: one live line per tool, redrawn in place with
/// its phase, SwiftPM's `[n/m]` step and the time it has taken, refreshed every second while
/// anything runs. Piped (a CI log): one plain line per phase, and every 30 seconds
/// (`TACK_PROGRESS_INTERVAL`) a line per tool still running with its phase, step and time, so
/// a long build is never silent. A failure's line says only "failed": the error itself is
/// said once, by the command, when everything has finished.
final class ProgressReporter: @unchecked Sendable {
    private let lock = NSLock()
    private let live: Bool
    private let color: Bool
    private var rows: [String] = []
    private var state: [String: Row] = [:]
    private var drawn = 0
    private var ticker: Task<Void, Never>?

    struct Row {
        var version: String
        var phase: String
        var started: ContinuousClock.Instant
        var done: Bool
        /// The kind of phase last printed, piped (so `[n/m]` steps do not each take a line).
        var printedKind: String
        /// When the download began, for its rate and time left.
        var downloadStarted: ContinuousClock.Instant? = nil
    }

    /// Seconds between the piped progress lines.
    private let pipedInterval: Double

    init(settings: Settings) {
        live = CurrentProcess.isTerminal(2) && settings.environment["TERM"] != "dumb" && !Output.isQuiet
        color = live && settings.environment["NO_COLOR"] == nil
        pipedInterval = NumericSetting.read(settings.environment, "TACK_PROGRESS_INTERVAL", minimum: 0.1, maximum: NumericSetting.day) ?? 30
    }

    deinit { ticker?.cancel() }

    func handle(_ event: Installer.Event) {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        switch event {
        case .phase(let tool, let version, let phase):
            var row = state[tool] ?? Row(version: version, phase: "", started: now, done: false, printedKind: "")
            if state[tool] == nil { rows.append(tool) }
            row.phase = phase.label + "…"
            if case .downloading(let received, let total) = phase {
                let started = row.downloadStarted ?? now
                row.downloadStarted = started
                row.phase = phase.label + Self.rate(received: received, total: total, over: now - started) + "…"
            }
            state[tool] = row
            if !live {
                let kind = String(phase.label.prefix { $0 != " " })
                if kind != row.printedKind {
                    state[tool]?.printedKind = kind
                    Output.err("\(tool) \(version): \(phase.label)\n")
                }
            }
        case .finished(let tool, let version, let status):
            // Nothing happened to an installed tool: say nothing, as a no-op install should.
            if status == .alreadyInstalled && state[tool] == nil { return }
            let took = state[tool].map { Self.elapsed(now - $0.started) } ?? ""
            let word = status == .installed ? paint("installed", 32) : "already installed"
            finish(tool, version, word + (took.isEmpty ? "" : " in \(took)"), now: now)
        case .failed(let tool, let version, _):
            finish(tool, version, paint("failed", 31), now: now)
        }
        if live {
            redraw(now)
            startTicker()
        } else if !Output.isQuiet {
            startTicker()
        }
    }

    private func finish(_ tool: String, _ version: String, _ phase: String, now: ContinuousClock.Instant) {
        if state[tool] == nil { rows.append(tool) }
        state[tool] = Row(version: version, phase: phase, started: state[tool]?.started ?? now, done: true, printedKind: "")
        if !live { Output.err("\(tool) \(version): \(phase)\n") }
    }

    /// Every row again, in place: the cursor goes up over what was drawn, never past it.
    private func redraw(_ now: ContinuousClock.Instant) {
        var out = drawn > 0 ? "\u{1B}[\(drawn)A" : ""
        for tool in rows {
            guard let row = state[tool] else { continue }
            var line = "\(tool) \(row.version): \(row.phase)"
            if !row.done {
                let took = Self.elapsed(now - row.started)
                if !took.isEmpty { line += " " + paint(took, 2) }
            }
            out += "\r\u{1B}[2K" + line + "\n"
        }
        drawn = rows.count
        Output.err(out)
    }

    private func startTicker() {
        guard ticker == nil else { return }
        let interval = live ? 1 : pipedInterval
        // Detached, in the command's process scope (it says its lines where the command does).
        let scope = ProcessScope.current
        ticker = Task.detached { [weak self] in
            await ProcessScope.$current.withValue(scope) {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
                    guard let self, self.tick() else { return }
                }
            }
        }
    }

    /// One refresh of the elapsed times (piped: a line for each tool still running); false
    /// when nothing runs any more.
    private func tick() -> Bool {
        lock.withLock {
            let running = state.values.contains { !$0.done }
            guard running else {
                ticker = nil
                return false
            }
            let now = ContinuousClock.now
            if live {
                redraw(now)
            } else {
                for tool in rows {
                    guard let row = state[tool], !row.done else { continue }
                    let took = Self.elapsed(now - row.started)
                    Output.err("\(tool) \(row.version): still \(row.phase.hasSuffix("…") ? String(row.phase.dropLast()) : row.phase), \(took.isEmpty ? "0s" : took) so far\n")
                }
            }
            return true
        }
    }

    /// `, 24.0 MB/s, 16s left` for a download of `total` bytes `received` so far over
    /// `elapsed`; nothing in its first second.
    static func rate(received: Int64, total: Int64?, over elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds >= 1, received > 0 else { return "" }
        let perSecond = Double(received) / seconds
        var out = ", \(formatSize(Int(perSecond)))/s"
        if let total, total > received {
            let left = Self.elapsed(.seconds(Int((Double(total - received) / perSecond).rounded(.up))))
            if !left.isEmpty { out += ", \(left) left" }
        }
        return out
    }

    /// `7s`, `2m 05s`, `1h 02m`; nothing under a second.
    static func elapsed(_ d: Duration) -> String { Elapsed.text(Double(d.components.seconds), tenths: false) }

    private func paint(_ s: String, _ code: Int) -> String { color ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
}
