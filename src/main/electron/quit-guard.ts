import { stopProblem, type StopOutcome } from '../core-stop'

/** The part of Electron's `app` that quitting goes through. */
export interface QuittingApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown
  exit(code?: number): void
}

/**
 * Makes quitting wait for the core to stop (turns recorded, jobs ended, MCP servers and the
 * database closed), at most for the stop's bound. Electron would otherwise end the process as
 * soon as before-quit returns, with the stop only begun. The first quit holds the app and
 * starts the stop; any later one (another Cmd+Q, the last window closing) is held too and waits
 * for the same stop. `exit` fires no before-quit, so the hold does not catch the real exit.
 */
export function waitForCoreOnQuit(
  app: QuittingApp,
  stop: () => Promise<StopOutcome>,
  report: (line: string) => void = (line) => console.error(line)
): void {
  let stopping = false
  app.on('before-quit', (event) => {
    event.preventDefault()
    if (stopping) return
    stopping = true
    void stop().then((outcome) => {
      const problem = stopProblem(outcome)
      if (problem) report(`Mecatl: ${problem}`)
      app.exit(problem ? 1 : 0)
    })
  })
}
