import ArgumentParser
import Foundation
import TackCore
import TackFront
import TackKit

/// Fails a command with the error's message on stderr.
func fail(_ error: TackError, status: Int32 = 1) -> ExitCode {
    ProcessScope.current?.failed(error)
    Output.error(error.message)
    return ExitCode(status)
}
