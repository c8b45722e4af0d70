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
    // The self-test runs before the first command needs it, and again for a changed backend:
    // the sandbox is one of the few long-lived parts that follow the settings as they change.
    void sandbox.prepare(settings.snapshot())
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
