import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { createCore } from '../src/main/core'
import { startBrowserServer } from '../src/main/server/browser-server'
import { reportAmount } from './measure'
import {
  idleProviderSettings,
  launchChromium,
  openProjectWindow,
  windowParts
} from './window-harness'

const MB = 1024 * 1024
const IDLE_MS = 3000
/** Streaming is measured for this long at most; the job is stopped after. */
const STREAM_MS = 20_000
const LONG_TASK_TARGET_MS = 100

// Counts frames and collects long tasks from the first script of the page on.
const probe = `
  window.__perf = { frames: 0, longtasks: [] }
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__perf.longtasks.push(entry.duration)
  }).observe({ type: 'longtask', buffered: true })
  const tick = () => { window.__perf.frames++; requestAnimationFrame(tick) }
  requestAnimationFrame(tick)
`

interface Window {
  frames: number
  longest: number
  over50: number
}

async function sample(page: Page, run: () => Promise<number>): Promise<Window & { ms: number }> {
  await page.evaluate('window.__perf.frames = 0; window.__perf.longtasks = []')
  const ms = await run()
  const perf = (await page.evaluate('window.__perf')) as { frames: number; longtasks: number[] }
  return {
    ms,
    frames: perf.frames,
    longest: Math.max(0, ...perf.longtasks),
    over50: perf.longtasks.length
  }
}

/**
 * The window while the job monitor follows a job printing 200 MB: frame rate and the longest
 * main-thread task (Chromium's 'longtask' entries, over 50 ms each), against the same window
 * idle. Runs the built renderer in browser mode, so it needs `npm run build` first.
 */
export async function benchJobMonitor(dir: string, workspace: string, file: string): Promise<void> {
  const parts = windowParts('monitor')
  if (!parts) return
  const home = path.join(dir, 'monitor-home')
  await mkdir(home, { recursive: true })
  await writeFile(path.join(home, 'settings.yaml'), idleProviderSettings)
  const core = await createCore({
    dataDir: home,
    host: 'browser',
    interactive: true,
    jobs: { tempBase: dir }
  })
  const server = await startBrowserServer({
    router: core.router,
    hub: core.hub,
    rendererDir: parts.rendererDir
  })
  const browser = await launchChromium(parts)
  try {
    const session = await core.sessions.create(workspace)
    const page = await openProjectWindow(browser, server.url(workspace), { initScript: probe })
    await page.getByTestId('jobs-toggle').click()
    await page.getByTestId('job-monitor').waitFor()

    const idle = await sample(page, async () => {
      await page.waitForTimeout(IDLE_MS)
      return IDLE_MS
    })
    const rssBefore = process.memoryUsage().rss
    let rssPeak = rssBefore
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss)
    }, 20)
    let shownBytes = 0
    const streaming = await sample(page, async () => {
      const started = Date.now()
      const job = await core.jobs.start({
        sessionId: session.id,
        workspace: session.workspace,
        callId: null,
        command: `cat '${file}'`,
        background: true,
        timeoutMs: null
      })
      await Promise.race([job.finished, new Promise((resolve) => setTimeout(resolve, STREAM_MS))])
      shownBytes = job.ring.totalBytes
      const elapsed = Date.now() - started
      job.stop('person')
      await job.finished
      return elapsed
    })
    clearInterval(sampler)

    const fps = (w: Window & { ms: number }): number => (w.frames * 1000) / w.ms
    reportAmount(
      'monitor: frames/s while following 200 MB',
      fps(streaming),
      'fps',
      'the same window idle',
      fps(idle)
    )
    reportAmount(
      'monitor: longest task (0: none over 50 ms)',
      streaming.longest,
      'ms',
      `the ${LONG_TASK_TARGET_MS} ms target`,
      LONG_TASK_TARGET_MS
    )
    console.log(
      `monitor: ${(shownBytes / MB).toFixed(0)} MB followed in ${(streaming.ms / 1000).toFixed(1)} s ` +
        `(${(shownBytes / MB / (streaming.ms / 1000)).toFixed(1)} MB/s, paced by the window); ` +
        `${streaming.over50} tasks over 50 ms ` +
        `(idle: ${idle.over50}); main process RSS +${((rssPeak - rssBefore) / MB).toFixed(1)} MB`
    )
  } finally {
    await browser.close()
    await server.close()
    await core.dispose()
  }
}
