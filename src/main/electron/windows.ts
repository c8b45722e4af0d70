import { BrowserWindow, dialog, shell } from 'electron'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { IpcTransport } from './ipc-transport'

/** One window per project folder (and welcome windows with none). */
export class WindowManager {
  private readonly folders = new Map<number, string | null>()
  private readonly rendererIndex = path.join(__dirname, '../renderer/index.html')

  constructor(private readonly transport: IpcTransport) {}

  /** True for pages we load ourselves: the built renderer, or the dev server in `npm run dev`. */
  isTrustedUrl = (url: string): boolean => {
    const dev = process.env.ELECTRON_RENDERER_URL
    if (dev && url.startsWith(dev)) return true
    return url.split(/[?#]/)[0] === pathToFileURL(this.rendererIndex).href
  }

  /** Focuses the window already showing `folder`; returns false when there is none. */
  focus(folder: string, except?: number): boolean {
    for (const [id, shown] of this.folders) {
      if (shown === folder && id !== except) {
        const window = BrowserWindow.fromId(id)
        if (window) {
          if (window.isMinimized()) window.restore()
          window.focus()
          return true
        }
      }
    }
    return false
  }

  open(folder: string | null): void {
    if (folder && this.focus(folder)) return
    const window = new BrowserWindow({
      width: 1280,
      height: 820,
      minWidth: 640,
      minHeight: 600,
      show: false,
      title: folder ? `${path.basename(folder)} — Mecatl` : 'Mecatl',
      webPreferences: {
        preload: path.join(__dirname, '../preload/index.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true
      }
    })
    const id = window.id
    this.folders.set(id, folder)
    this.transport.attach(window.webContents)
    window.once('ready-to-show', () => window.show())
    window.on('closed', () => this.folders.delete(id))
    this.guard(window)
    const query = folder ? { folder } : undefined
    const dev = process.env.ELECTRON_RENDERER_URL
    if (dev) {
      void window.loadURL(folder ? `${dev}?${new URLSearchParams({ folder })}` : dev)
    } else {
      void window.loadFile(this.rendererIndex, query ? { query } : undefined)
    }
  }

  /** Remembers which folder a window moved to when its page opened one. */
  noteFolder(contentsId: number, folder: string): void {
    for (const window of BrowserWindow.getAllWindows()) {
      if (window.webContents.id === contentsId) {
        this.folders.set(window.id, folder)
        window.setTitle(`${path.basename(folder)} — Mecatl`)
      }
    }
  }

  windowIdOf(contentsId: number): number | undefined {
    return BrowserWindow.getAllWindows().find((w) => w.webContents.id === contentsId)?.id
  }

  private guard(window: BrowserWindow): void {
    const contents = window.webContents
    contents.on('will-navigate', (event, url) => {
      if (!this.isTrustedUrl(url)) event.preventDefault()
    })
    // The page holds unsaved Settings: Electron would keep the window open without a word, so
    // ask here, as a browser asks for the same page.
    contents.on('will-prevent-unload', (event) => {
      const choice = dialog.showMessageBoxSync(window, {
        type: 'question',
        buttons: ['Stay', 'Close without saving'],
        defaultId: 0,
        cancelId: 0,
        message: 'Close with unsaved changes in Settings?',
        detail: 'Your changes are not saved yet. Stay to save them, or close and lose them.'
      })
      if (choice === 1) event.preventDefault()
    })
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//.test(url)) void shell.openExternal(url)
      return { action: 'deny' }
    })
  }
}
