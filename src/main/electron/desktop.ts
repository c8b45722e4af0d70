import { app, dialog } from 'electron'
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { coreStopper } from '../core-stop'
import { dataDirectory } from '../settings/data-dir'
import { IpcTransport } from './ipc-transport'
import { createNotifier } from './notifier'
import { waitForCoreOnQuit } from './quit-guard'
import { SecretStore } from './secrets'
import { WindowManager } from './windows'

// The desktop app, loaded by the Electron entry (src/main/index.ts) once the compile cache is
// on: the same core as browser mode and the CLI, behind IPC and windows.

// The core is loaded while Electron gets ready, not after: the window waits for both. A failure
// to load it is told by `start`, which waits for it.
const coreModule = import('../core')
coreModule.catch(() => undefined)

async function start(): Promise<void> {
  const { createCore } = await coreModule
  const dataDir = dataDirectory()
  const secrets = new SecretStore(dataDir)
  let windows: WindowManager | null = null
  const core = await createCore({
    dataDir,
    host: 'electron',
    interactive: true,
    hooks: {
      pickFolder: async () => {
        const result = await dialog.showOpenDialog({ properties: ['openDirectory'] })
        return result.canceled ? null : (result.filePaths[0] ?? null)
      },
      openWorkspace: async (folder, caller) => {
        const contentsId = Number(caller.replace(/^ipc:/, ''))
        const own = windows?.windowIdOf(contentsId)
        if (windows?.focus(folder, own)) return true
        windows?.noteFolder(contentsId, folder)
        return false
      },
      storeSecret: (name, value) => secrets.store(name, value),
      readSecret: (name) => secrets.read(name),
      notify: createNotifier()
    }
  })
  const transport = new IpcTransport(
    core.router,
    core.hub,
    (url) => windows?.isTrustedUrl(url) ?? false
  )
  windows = new WindowManager(transport)
  const manager = windows

  app.on('second-instance', (_event, argv) => manager.open(folderFromArgs(argv)))
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('activate', () => manager.open(null))
  waitForCoreOnQuit(
    app,
    coreStopper(() => core.dispose())
  )
  manager.open(folderFromArgs(process.argv))
  // Once the window is on its way: where Shell stands is then checked without a command.
  core.warmUp()
}

function folderFromArgs(argv: readonly string[]): string | null {
  const candidate = argv.slice(app.isPackaged ? 1 : 2).find((arg) => !arg.startsWith('-'))
  if (!candidate) return null
  const resolved = path.resolve(candidate)
  return existsSync(resolved) && statSync(resolved).isDirectory() ? resolved : null
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      dialog.showErrorBox(
        'Mecatl could not start',
        error instanceof Error ? error.message : String(error)
      )
      app.quit()
    })
}
