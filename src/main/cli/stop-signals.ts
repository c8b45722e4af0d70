import { signalExitCode } from './exit'

/** The signals a command stops cleanly on. */
export type StopSignal = 'SIGINT' | 'SIGTERM'

const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM']

/**
 * Listens for SIGINT and SIGTERM until the returned function is called. The first begins a
 * clean stop (`onStop`) and says so on stderr; a second, of either kind, while that stop runs
 * exits at once with its code (130 or 143), for a person who will not wait. Without a listener
 * Node would end the process at the first signal, leaving the jobs' process groups running and
 * the database unclosed.
 */
export function onStopSignals(command: string, onStop: (signal: StopSignal) => void): () => void {
  let stopping = false
  const listener = (signal: StopSignal): void => {
    if (!stopping) {
      stopping = true
      process.stderr.write(
        `mecatl ${command}: ${signal}: stopping (turns, jobs, MCP servers, the database); send it again to quit at once\n`
      )
      onStop(signal)
      return
    }
    process.stderr.write(
      `mecatl ${command}: ${signal} again: quitting without waiting for the stop to finish\n`
    )
    process.exit(signalExitCode(signal))
  }
  for (const signal of STOP_SIGNALS) process.on(signal, listener)
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, listener)
  }
}
