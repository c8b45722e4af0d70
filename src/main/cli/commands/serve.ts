import path from 'node:path'
import { startBrowserServer } from '../../server/browser-server'
import type { CliArgs } from '../args'
import { cliCore, requireWorkspace } from '../context'

/** `serve`: browser mode, the window's core behind a WebSocket on 127.0.0.1, until stopped. */
export async function serveCommand(args: CliArgs): Promise<number> {
  const workspace = args.workspace ? requireWorkspace(args) : null
  const core = await cliCore(args, { host: 'browser', interactive: true, workspace })
  const server = await startBrowserServer({
    router: core.router,
    hub: core.hub,
    rendererDir: rendererDirectory(),
    port: args.port
  })
  console.log(`Mecatl browser mode: ${server.url(workspace)}`)
  console.log('Open that address in a browser; press Ctrl+C to stop.')
  // The server answers and logs every bad request and frame itself; this is the last net, so a
  // promise that something forgot to wait on is reported rather than ending the person's session.
  const onUnhandled = (reason: unknown): void => {
    console.error(
      'mecatl serve: a task failed and nothing was waiting for it; still serving:',
      reason
    )
  }
  process.on('unhandledRejection', onUnhandled)
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  process.off('unhandledRejection', onUnhandled)
  await core.dispose()
  await server.close()
  return 0
}

/** The built renderer sits beside the bundled CLI: out/main/cli.js → out/renderer. */
export function rendererDirectory(): string {
  return path.resolve(__dirname, '..', 'renderer')
}
