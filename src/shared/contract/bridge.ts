import type { RpcErrorBody } from './frames'

/** What one call answers across any transport: a result, or a typed error. */
export type CallResponse = { ok: true; result: unknown } | { ok: false; error: RpcErrorBody }

/** An event frame as a subscriber receives it. */
export interface EventFrame {
  event: string
  payload: unknown
}

/**
 * The whole surface the desktop preload exposes to the page as `window.mecatl`: a call verb and
 * a subscription that returns its disposer. Browser mode offers the same over WebSocket.
 */
export interface PreloadBridge {
  call(method: string, input: unknown): Promise<CallResponse>
  subscribe(listener: (frame: EventFrame) => void): () => void
  /**
   * Where a file dropped on the window lives (Electron's webUtils), '' when it has no path; the
   * desktop only: a browser never tells a page where a dropped file came from.
   */
  pathForFile?(file: File): string
}

/** The IPC channel names the preload and the Electron transport agree on. */
export const ipcChannels = {
  call: 'mecatl:call',
  event: 'mecatl:event',
  ready: 'mecatl:ready'
} as const
