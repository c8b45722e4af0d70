import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { writeFakeSettings } from '../testing/cli-runner'
import { startFakeModelServer, type FakeModelServer } from '../testing/fake-model-server'
import { report, reportAmount } from './measure'

/** The goal of issue #36: the first model request within 2.5× a bare node that sends it. */
const FIRST_REQUEST_RATIO_GOAL = 2.5
const ROUNDS = 15
const FAKE_KEY = 'sk-bench'

/**
 * How fast Mecatl starts, each figure against a bare node in the same run, as medians of fresh
 * processes taken in turns (so a machine slowed by others slows both alike):
 * - `run 'say hi'`: from spawning the CLI to its first request arriving at the model server,
 *   against `node -e` that posts the same request with fetch to the same server;
 * - `serve`: from spawning to its "Mecatl browser mode: <url>" line, against the same baseline;
 * - `help`: the whole process, against `node -e 0`.
 * Runs the built CLI (out/main/cli.js, built here when the sources are newer), from the
 * repository's root, where `npm run bench` runs.
 */
export async function benchStartup(dir: string, workspace: string): Promise<void> {
  const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs', '--quiet'], {
    stdio: 'inherit'
  })
  if (built.status !== 0) throw new Error('startup: the build failed')
  const cli = path.resolve('out', 'main', 'cli.js')
  const home = path.join(dir, 'startup-home')
  await mkdir(home, { recursive: true })
  await writeFile(path.join(workspace, 'README.md'), '# A small project\n\nIt says hi.\n')
  const fake = await startFakeModelServer()
  try {
    const settings = await writeFakeSettings(path.join(home, 'settings.yaml'), fake)
    const env = { PATH: process.env.PATH, HOME: home, MECATL_HOME: home, FAKE_KEY }
    const arrivals = requestArrivals(fake)
    const runArgs = [cli, 'run', 'say hi', '--workspace', workspace, '--config', settings]

    // One run first: its request is the one the baseline sends, and the data folder is made.
    const first = await untilRequest(arrivals, () => spawnNode(runArgs, env))
    const request = fake.requests.find((r) => r.normalized !== undefined)
    if (!first.ok || !request) {
      throw new Error(`startup: \`mecatl run\` sent no model request\n${first.output()}`)
    }
    const requestFile = path.join(dir, 'startup-request.json')
    await writeFile(
      requestFile,
      JSON.stringify({
        url: `${fake.url}${request.path}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${FAKE_KEY}` },
        body: JSON.stringify(request.body)
      })
    )
    const bareArgs = ['-e', barePost, requestFile]
    const serveArgs = [cli, 'serve', '--workspace', workspace, '--port', '0', '--config', settings]
    await servesTheWindow(spawnNode(serveArgs, env))

    // The main thread's CPU time up to each request too: a figure others' load on the machine
    // moves far less than the wall time, which waits for the cores as well.
    const cpu = { run: [] as number[], bare: [] as number[] }
    const timed = async (args: string[], into: number[]): Promise<number> => {
      const { ms, cpuMs } = await untilRequest(arrivals, () => spawnNode(args, env))
      if (cpuMs !== null) into.push(cpuMs)
      return ms
    }
    const [runMs = 0, bareMs = 0, serveMs = 0, bareServeMs = 0] = await interleavedMediansOf([
      () => timed(runArgs, cpu.run),
      () => timed(bareArgs, cpu.bare),
      () => untilReady(spawnNode(serveArgs, env)),
      async () => (await untilRequest(arrivals, () => spawnNode(bareArgs, env))).ms
    ])
    report("startup: `run 'say hi'` to its first request", runMs, 'bare node posting it', bareMs)
    // The first of each was the warm-up.
    if (cpu.run.length > 1 && cpu.bare.length > 1) {
      report(
        'startup: main-thread CPU to the first request',
        medianOf(cpu.run.slice(1)),
        'bare node posting it',
        medianOf(cpu.bare.slice(1))
      )
    }
    reportAmount(
      'startup: first request, times bare node',
      runMs / bareMs,
      '×',
      `the goal of ${FIRST_REQUEST_RATIO_GOAL}×`,
      FIRST_REQUEST_RATIO_GOAL
    )
    report(
      'startup: `serve` to its ready line',
      serveMs,
      'bare node posting a request',
      bareServeMs
    )
    const [helpMs = 0, emptyMs = 0] = await interleavedMediansOf([
      async () => (await exited(spawnNode([cli, 'help'], env))).ms,
      async () => (await exited(spawnNode(['-e', '0'], env))).ms
    ])
    report('startup: `help`, the whole process', helpMs, '`node -e 0`', emptyMs)
  } finally {
    await fake.close()
  }
}

// The baseline: a node process that posts the recorded request and reads the answer.
const barePost = `
const { url, headers, body } = JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))
fetch(url, { method: 'POST', headers, body }).then((r) => r.text())
`

interface Spawned {
  pid: number | undefined
  started: bigint
  done: Promise<boolean>
  /** Called with everything printed on stdout so far, at each new chunk. */
  onStdout: (listener: (stdout: string) => void) => void
  output: () => string
  stop: () => void
}

function spawnNode(args: readonly string[], env: NodeJS.ProcessEnv): Spawned {
  const started = process.hrtime.bigint()
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  const listeners: ((stdout: string) => void)[] = []
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
    for (const listener of listeners) listener(stdout)
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const done = new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false))
    child.once('close', (code) => resolve(code === 0))
  })
  return {
    pid: child.pid,
    started,
    done,
    onStdout: (listener) => void listeners.push(listener),
    output: () => `--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`,
    stop: () => void child.kill('SIGTERM')
  }
}

const sinceMs = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e6

/** Each chat request's arrival, as a promise per request to come (the script answers "hi"). */
function requestArrivals(fake: FakeModelServer): { next: () => Promise<bigint> } {
  let arrived: ((at: bigint) => void) | null = null
  const step = (): { text: string } => {
    arrived?.(process.hrtime.bigint())
    arrived = null
    return { text: 'hi' }
  }
  fake.setScript(Array.from({ length: 1000 }, () => step))
  return { next: () => new Promise<bigint>((resolve) => (arrived = resolve)) }
}

/**
 * The time from the spawn to the process's first model request, and the CPU time its main thread
 * had had by then (null where /proc has no schedstat); the process is run to its end.
 */
async function untilRequest(
  arrivals: { next: () => Promise<bigint> },
  start: () => Spawned
): Promise<{ ms: number; cpuMs: number | null; ok: boolean; output: () => string }> {
  const arrival = arrivals.next()
  const spawned = start()
  const at = await Promise.race([arrival, spawned.done.then(() => null)])
  const cpuMs = mainThreadCpuMs(spawned.pid)
  const ok = await spawned.done
  if (at === null) throw new Error(`startup: the process sent no request\n${spawned.output()}`)
  return { ms: Number(at - spawned.started) / 1e6, cpuMs, ok, output: spawned.output }
}

/** The CPU time of a process's main thread so far (Linux's schedstat: nanoseconds on a CPU). */
function mainThreadCpuMs(pid: number | undefined): number | null {
  try {
    const onCpu = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0])
    return Number.isFinite(onCpu) && onCpu > 0 ? onCpu / 1e6 : null
  } catch {
    return null
  }
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

const readyLine = /Mecatl browser mode: (http:\/\/127\.0\.0\.1:\d+\/\S*)/

/** The address `serve` prints once ready, and the time from the spawn to it. */
function ready(spawned: Spawned): Promise<{ url: string; ms: number }> {
  return new Promise((resolve, reject) => {
    spawned.onStdout((stdout) => {
      const url = readyLine.exec(stdout)?.[1]
      if (url) resolve({ url, ms: sinceMs(spawned.started) })
    })
    void spawned.done.then(() =>
      reject(new Error(`startup: serve ended before it was ready\n${spawned.output()}`))
    )
  })
}

/** The time from the spawn to `serve`'s ready line; the server is then stopped. */
async function untilReady(spawned: Spawned): Promise<number> {
  const { ms } = await ready(spawned)
  spawned.stop()
  await spawned.done
  return ms
}

/** A ready line means nothing unless the window is served at its address: checked once, untimed. */
async function servesTheWindow(spawned: Spawned): Promise<void> {
  try {
    const { url } = await ready(spawned)
    const page = await fetch(url)
    const html = await page.text()
    if (!page.ok || !html.includes('<html')) {
      throw new Error(`startup: serve answered ${page.status} at ${url}: ${html.slice(0, 200)}`)
    }
  } finally {
    spawned.stop()
    await spawned.done
  }
}

async function exited(spawned: Spawned): Promise<{ ms: number }> {
  const ok = await spawned.done
  if (!ok) throw new Error(`startup: the process failed\n${spawned.output()}`)
  return { ms: sinceMs(spawned.started) }
}

/**
 * Like measure.ts's interleavedMedians, for figures a run measures itself (a moment inside a
 * process's life rather than the whole call): one warm-up each, then `ROUNDS` rounds in turns.
 */
async function interleavedMediansOf(fns: readonly (() => Promise<number>)[]): Promise<number[]> {
  for (const fn of fns) await fn()
  const times: number[][] = fns.map(() => [])
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, fn] of fns.entries()) times[index]?.push(await fn())
  }
  return times.map(medianOf)
}
