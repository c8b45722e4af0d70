import { spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { createCore } from '../src/main/core'
import { startFakeModelServer, type FakeModelServer } from '../testing/fake-model-server'
import { reportAmount } from './measure'
import { recordSession } from './recorded-session'
import { rendererProbe, type RendererProbe } from './renderer-heap'
import { startServe, type ServeProcess } from './serve-process'
import { printReading, reportGrowth, type Reading } from './soak-readings'
import { floodReply, turnMarker, turnReplies, writeSoakProject } from './soak-script'
import {
  floodShown,
  newSession,
  openJobMonitor,
  openRecorded,
  openSession,
  sendTurn,
  stopAndDismissJob
} from './soak-window'
import { launchChromium, openProjectWindow, windowParts } from './window-harness'

/** The default day: a few minutes on two busy cores. MECATL_SOAK_TURNS makes it longer. */
const DEFAULT_TURNS = 400
/**
 * The sessions of a day, one after another, each with a job flooding the monitor meanwhile: a
 * longer day has longer sessions, not more of them, so the session list ends the same length.
 */
const SESSIONS = 20
const MIN_TURNS_PER_SESSION = 10
const BIG_EVENTS = 10_000
const SMALL_EVENTS = 10
const HEAP_TARGET_MB = 300
const FAKE_KEY = 'sk-fake-soak'
// Wide enough for the plan and the job monitor side by side: the monitor follows the flood all
// day, instead of hiding behind the plan's tab.
const WINDOW = { width: 1680, height: 900 }

function soakSettings(fake: FakeModelServer): string {
  return [
    'providers:',
    `  - { id: fake, kind: openai-compatible, base_url: "${fake.openaiBaseUrl}", api_key_env: FAKE_MODEL_KEY, models: [fake-model] }`,
    'default_model: { provider: fake, model: fake-model }',
    // The day runs unattended: commands and edits run (Shell inside its sandbox) without asking.
    'permissions: { mode: allow }',
    ''
  ].join('\n')
}

/** The long session and the small one, written into the store before the server starts. */
async function seedSessions(home: string, workspace: string): Promise<void> {
  const core = await createCore({ dataDir: home, host: 'browser', interactive: true })
  try {
    recordSession(core, workspace, 'small', SMALL_EVENTS)
    recordSession(core, workspace, 'big', BIG_EVENTS)
  } finally {
    await core.dispose()
  }
}

/** What the soak drives and reads. */
interface Day {
  page: Page
  probe: RendererProbe
  serve: ServeProcess
  fake: FakeModelServer
  started: number
  /** MECATL_SOAK_SNAPSHOTS: where each reading also leaves heap snapshots of both sides. */
  snapshots: string | null
}

async function takeReading(day: Day, turns: number): Promise<Reading> {
  // The same view every time, so what grows is what the window keeps, not what it shows.
  await openRecorded(day.page, 'small', SMALL_EVENTS)
  const renderer = await day.probe.read()
  const serverHeapMb = await day.serve.heapMb()
  const serverRssMb = day.serve.residentMb() ?? Number.NaN
  if (day.snapshots !== null) {
    await day.probe.snapshot(path.join(day.snapshots, `renderer-${turns}.heapsnapshot`))
    await day.serve.heapSnapshot(path.join(day.snapshots, `server-${turns}.heapsnapshot`))
  }
  const seconds = (Date.now() - day.started) / 1000
  return { turns, seconds, renderer, serverHeapMb, serverRssMb }
}

/**
 * One cycle: a new session whose first message starts a job flooding the monitor, the cycle's
 * turns, half-way a look at the previous session and back, and the job stopped and dismissed.
 */
async function runCycle(day: Day, cycle: number, first: number, turns: number): Promise<void> {
  const { page, fake } = day
  await newSession(page)
  const title = `Cycle ${cycle}:`
  fake.setScript([floodReply(cycle), { text: `Watching it. ${turnMarker(first)}` }])
  await sendTurn(page, `${title} start the watcher`, turnMarker(first))
  await floodShown(page)
  for (let n = first + 1; n < first + turns; n++) {
    fake.setScript(turnReplies(n))
    await sendTurn(page, `What does module ${n} do? (turn ${n})`, turnMarker(n))
    if (n === first + Math.floor(turns / 2) && cycle > 0) {
      await openSession(page, `Cycle ${cycle - 1}:`, turnMarker(first - 1))
      await openSession(page, title, turnMarker(n))
    }
  }
  await stopAndDismissJob(page)
}

/**
 * A long day in one window: `mecatl serve` in its own process with Chromium on it, hundreds to
 * thousands of turns with tool cards and streamed replies against the fake model, in SESSIONS
 * sessions one after another, each with a background job flooding the job monitor and a look
 * back at the previous session. Prints the renderer's JS heap and the server's heap (each after
 * a forced collection) and RSS as the day goes, their growth over its second half, and the
 * renderer's heap with a 10,000-event session open against the same window with a 10-event one.
 */
export async function benchSoak(dir: string): Promise<void> {
  // The server runs from out/: stale, it would measure yesterday's code.
  spawnSync(process.execPath, ['scripts/ensure-built.mjs', '--quiet'], { stdio: 'inherit' })
  const parts = windowParts('soak')
  if (!parts) return
  const asked = Number(process.env.MECATL_SOAK_TURNS ?? DEFAULT_TURNS) || DEFAULT_TURNS
  const perSession = Math.max(MIN_TURNS_PER_SESSION, Math.round(asked / SESSIONS))
  const snapshots = process.env.MECATL_SOAK_SNAPSHOTS ?? null
  if (snapshots !== null) await mkdir(snapshots, { recursive: true })
  const home = path.join(dir, 'soak-home')
  const workspace = path.join(dir, 'soak-project')
  await mkdir(home, { recursive: true })
  await writeSoakProject(workspace)
  const fake = await startFakeModelServer({ requireKey: FAKE_KEY, keepRequests: 10 })
  const settingsFile = path.join(home, 'settings.yaml')
  await writeFile(settingsFile, soakSettings(fake))
  await seedSessions(home, workspace)
  const serve = await startServe(home, settingsFile, { FAKE_MODEL_KEY: FAKE_KEY })
  const browser = await launchChromium(parts)
  try {
    const url = new URL(serve.url)
    url.searchParams.set('folder', workspace)
    const page = await openProjectWindow(browser, url.toString(), { viewport: WINDOW })
    const probe = await rendererProbe(page)
    await openJobMonitor(page)
    const day: Day = { page, probe, serve, fake, started: Date.now(), snapshots }
    console.log(
      `soak: ${SESSIONS * perSession} turns in ${SESSIONS} sessions of ${perSession}, ` +
        'each with a job flooding the monitor (MECATL_SOAK_TURNS for a longer day)'
    )
    const readings: Reading[] = [await takeReading(day, 0)]
    printReading(readings[0] as Reading)
    for (let cycle = 0; cycle < SESSIONS; cycle++) {
      await runCycle(day, cycle, cycle * perSession, perSession).catch((error: unknown) => {
        throw new Error(`the soak stopped in session ${cycle + 1}: ${String(error)}`)
      })
      const reading = await takeReading(day, (cycle + 1) * perSession)
      readings.push(reading)
      printReading(reading)
    }
    reportGrowth(readings)
    await reportLongSession(day, readings[readings.length - 1] as Reading)
    await probe.close()
  } finally {
    await browser.close()
    await serve.stop()
    await fake.close()
  }
}

/** The 10,000-event session opened at the end of the day, against the small one just before. */
async function reportLongSession(day: Day, small: Reading): Promise<void> {
  await openRecorded(day.page, 'big', BIG_EVENTS)
  const big = await day.probe.read()
  reportAmount(
    'soak: renderer heap, 10,000-event session open',
    big.heapMb,
    'MB',
    'the same window, 10 events',
    small.renderer.heapMb
  )
  console.log(
    `  target: under ${HEAP_TARGET_MB} MB: ${big.heapMb < HEAP_TARGET_MB ? 'met' : 'MISSED'} ` +
      `(${big.nodes} DOM nodes, ${big.listeners} listeners)`
  )
  reportAmount(
    'soak: server heap, 10,000-event session open',
    await day.serve.heapMb(),
    'MB',
    'the same, 10 events',
    small.serverHeapMb
  )
}
