import path from 'node:path'
import { format } from 'node:util'
import { startBrowserServer } from '../../server/browser-server'
import type { CoreOptions } from '../../core'
import type { CliArgs } from '../args'
import { coreStopper, stopProblem } from '../../core-stop'
import { cliCore, requireWorkspace } from '../context'
import { requireDistinctToolNames } from '../mcp-collisions'
import { ExitCode } from '../exit'
import { onStopSignals } from '../stop-signals'
import { printError } from '../print'

/**
 * `serve`: browser mode, the window's core behind a WebSocket on 127.0.0.1, until SIGINT or
 * SIGTERM. Then it stops cleanly (see core-stop.ts) and exits 0, or 1 when the stop failed or
 * passed its bound; a second signal while it stops quits at once (130 or 143).
 */
export async function serveCommand(
  args: CliArgs,
  /** The testing entry (testing/e2e-serve.ts) widens the web guard here; the CLI never does. */
  testing: Pick<CoreOptions, 'webGuard'> = {}
): Promise<number> {
  const workspace = args.workspace ? requireWorkspace(args) : null
  // Listening from the start: a signal while the core starts is a stop once it has.
  let requestStop = (): void => undefined
  const stopRequested = new Promise<void>((resolve) => (requestStop = resolve))
  const stopListening = onStopSignals('serve', () => requestStop())
  try {
    const core = await cliCore(args, { host: 'browser', interactive: true, workspace, ...testing })
    // The folder given is checked before serving; folders opened later show it in Settings → MCP.
    if (workspace) await requireDistinctToolNames(core, workspace)
    const server = await startBrowserServer({
      router: core.router,
      hub: core.hub,
      rendererDir: rendererDirectory(),
      port: args.port
    }).catch(async (error: unknown) => {
      await core.dispose()
      throw error
    })
    console.log(`Mecatl browser mode: ${server.url(workspace)}`)
    console.log('Open that address in a browser; press Ctrl+C to stop.')
    // Ready first: what the window shows of the sandbox is checked from now on.
    core.warmUp()
    // The server answers and logs every bad request and frame itself; this is the last net, so
    // a promise that something forgot to wait on is reported rather than ending the person's
    // session, or the stop.
    let state = 'still serving'
    const onUnhandled = (reason: unknown): void => {
      printError(
        `mecatl serve: a task failed and nothing was waiting for it; ${state}: ${format(reason)}`
      )
    }
    process.on('unhandledRejection', onUnhandled)
    await stopRequested
    state = 'still stopping'
    // The window goes first, so no call starts a turn or a job while the core stops under it.
    const problem = stopProblem(
      await coreStopper(async () => {
        await server.close()
        await core.dispose()
      })()
    )
    process.off('unhandledRejection', onUnhandled)
    if (problem) {
      printError(`mecatl serve: ${problem}`)
      return ExitCode.failed
    }
    return ExitCode.ok
  } finally {
    stopListening()
  }
}

/** The built renderer sits beside the bundled CLI: out/main/cli.js → out/renderer. */
export function rendererDirectory(): string {
  return path.resolve(__dirname, '..', 'renderer')
}
