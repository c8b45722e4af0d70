import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron'
import { ipcChannels, type CallResponse } from '../../shared/contract/bridge'
import { openConnection, type Connection } from '../rpc/connection'
import type { EventHub } from '../events/event-hub'
import type { Router } from '../rpc/router'

/**
 * The router over Electron IPC. Only frames from our own windows' top frames, loaded from our
 * own renderer, are answered; each window gets its own connection, whose events wait until its
 * page says it is ready.
 */
export class IpcTransport {
  private readonly connections = new Map<number, Connection>()

  constructor(
    private readonly router: Router,
    private readonly hub: EventHub,
    private readonly isTrustedUrl: (url: string) => boolean
  ) {
    ipcMain.handle(ipcChannels.call, (event, frame: unknown) => this.onCall(event, frame))
    ipcMain.on(ipcChannels.ready, (event) => this.onReady(event))
  }

  /** Starts serving a window; its connection ends when the window's contents are destroyed. */
  attach(contents: WebContents): void {
    const connection = openConnection(this.router, this.hub, `ipc:${contents.id}`, (frame) => {
      if (frame.kind === 'event' && !contents.isDestroyed()) {
        contents.send(ipcChannels.event, { event: frame.event, payload: frame.payload })
      }
    })
    this.connections.set(contents.id, connection)
    contents.once('destroyed', () => {
      connection.close()
      this.connections.delete(contents.id)
    })
  }

  private trusted(event: IpcMainEvent | IpcMainInvokeEvent): boolean {
    const frame = event.senderFrame
    return (
      this.connections.has(event.sender.id) &&
      frame !== null &&
      frame.parent === null &&
      this.isTrustedUrl(frame.url)
    )
  }

  private async onCall(event: IpcMainInvokeEvent, frame: unknown): Promise<CallResponse> {
    if (!this.trusted(event)) {
      return { ok: false, error: { code: 'unsupported', message: 'untrusted sender' } }
    }
    const { method, input } = (frame ?? {}) as { method?: unknown; input?: unknown }
    return this.router.handle(String(method), input, { caller: `ipc:${event.sender.id}` })
  }

  private onReady(event: IpcMainEvent): void {
    if (!this.trusted(event)) return
    this.connections.get(event.sender.id)?.receive({ kind: 'ready' })
  }
}
