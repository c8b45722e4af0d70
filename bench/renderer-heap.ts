// The renderer's memory as Chromium's DevTools protocol reads it, after a forced collection, so a
// figure is what the page holds on to, not what the collector had not come round to yet.
import { writeFile } from 'node:fs/promises'
import type { CDPSession, Page } from 'playwright-core'

const MB = 1024 * 1024

/** What a page holds after a full collection. */
export interface RendererMemory {
  /** The JS heap in use, in MB. */
  heapMb: number
  /** DOM nodes alive, attached or not: a detached tree kept by a listener shows here. */
  nodes: number
  /** Event listeners registered from JavaScript. */
  listeners: number
}

/** Reads a page's memory through a DevTools session of its own. */
export interface RendererProbe {
  read(): Promise<RendererMemory>
  /** Writes a heap snapshot to `file`, for DevTools' Memory tab to compare with another. */
  snapshot(file: string): Promise<void>
  close(): Promise<void>
}

export async function rendererProbe(page: Page): Promise<RendererProbe> {
  const cdp: CDPSession = await page.context().newCDPSession(page)
  return {
    read: async () => {
      // Twice: objects freed by the first pass's finalizers (xterm's, React's) go in the second.
      await cdp.send('HeapProfiler.collectGarbage')
      await cdp.send('HeapProfiler.collectGarbage')
      const { usedSize } = await cdp.send('Runtime.getHeapUsage')
      const counters = await cdp.send('Memory.getDOMCounters')
      return {
        heapMb: usedSize / MB,
        nodes: counters.nodes,
        listeners: counters.jsEventListeners
      }
    },
    snapshot: async (file) => {
      const chunks: string[] = []
      const onChunk = (event: { chunk: string }): void => void chunks.push(event.chunk)
      cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk)
      await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
      cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk)
      await writeFile(file, chunks.join(''))
    },
    close: () => cdp.detach()
  }
}
