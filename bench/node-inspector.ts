// A Node process's JS heap read through its inspector (the DevTools protocol Chromium speaks too),
// after a forced collection: resident memory alone moves with when V8 last collected and how
// much it kept in reserve, so a heap that is flat can look like one that grows.
import { writeFile } from 'node:fs/promises'
import WebSocket from 'ws'

const MB = 1024 * 1024

/** The line a process started with `--inspect=127.0.0.1:0` prints with its address. */
export const inspectorLine = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/

export interface NodeInspector {
  /** The JS heap in use after a full collection, in MB. */
  heapMb(): Promise<number>
  /** Writes a heap snapshot to `file`, for DevTools' Memory tab to compare with another. */
  snapshot(file: string): Promise<void>
  close(): void
}

export async function connectInspector(url: string): Promise<NodeInspector> {
  const socket = new WebSocket(url)
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  let next = 0
  const waiting = new Map<number, (result: unknown) => void>()
  let chunks: string[] = []
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as {
      id?: number
      result?: unknown
      method?: string
      params?: { chunk?: string }
    }
    if (message.id !== undefined) waiting.get(message.id)?.(message.result)
    else if (message.method === 'HeapProfiler.addHeapSnapshotChunk') {
      chunks.push(message.params?.chunk ?? '')
    }
  })
  const send = (method: string): Promise<unknown> =>
    new Promise((resolve) => {
      const id = ++next
      waiting.set(id, (result) => {
        waiting.delete(id)
        resolve(result)
      })
      socket.send(JSON.stringify({ id, method }))
    })
  return {
    heapMb: async () => {
      await send('HeapProfiler.collectGarbage')
      const usage = (await send('Runtime.getHeapUsage')) as { usedSize: number }
      return usage.usedSize / MB
    },
    snapshot: async (file) => {
      chunks = []
      await send('HeapProfiler.takeHeapSnapshot')
      await writeFile(file, chunks.join(''))
      chunks = []
    },
    close: () => socket.close()
  }
}
