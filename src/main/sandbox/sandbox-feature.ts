import type { Feature } from '../feature'
import type { SettingsStore } from '../settings/settings-store'
import { SandboxService } from './sandbox-service'

/** Where Shell's commands (and sandboxed MCP servers) are confined. */
export const sandboxFeature: Feature<
  {
    options: { dataDir: string; configPath?: string }
    env: NodeJS.ProcessEnv
    settings: SettingsStore
  },
  { sandbox: SandboxService }
> = {
  name: 'sandbox',
  start({ options, env, settings }) {
    const sandbox = new SandboxService({
      dataDir: options.dataDir,
      // A settings file kept outside the data directory is Mecatl's too: never a command's.
      ownFiles: options.configPath ? [options.configPath] : [],
      env,
      home: env.HOME
    })
    // No self-test here: it would run on the way to the first request of every start, command or
    // not. It runs when first asked (a turn's first request on its way, the window's status, a
    // command, which waits for it; see docs/architecture.md, Startup), and again for a changed
    // backend: the sandbox is one of the few long-lived parts that follow the settings.
    const unsubscribe = settings.onChange((next) => void sandbox.prepare(next))
    return {
      provides: { sandbox },
      stop: async () => {
        unsubscribe()
        await sandbox.dispose()
      }
    }
  }
}
