import { app, dialog } from 'electron'
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { createCore } from './core'
import { coreStopper } from './core-stop'
import { IpcTransport } from './electron/ipc-transport'
import { createNotifier } from './electron/notifier'
import { waitForCoreOnQuit } from './electron/quit-guard'
import { SecretStore } from './electron/secrets'
import { WindowManager } from './electron/windows'
import { dataDirectory } from './settings/data-dir'

// The Electron entry: the same core as browser mode and the CLI, behind IPC and windows.
async function start(): Promise<void> {
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
