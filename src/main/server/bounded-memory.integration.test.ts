// The attack from issue #34: one connection pipelines ~180 KB of requests for the renderer's
// bundle and never reads. Node parses them all at once; a server that answered each as it came
// held a copy of the bundle per request, and grew from 100 MB to gigabytes. Here `mecatl serve`
// runs in its own process, so its resident memory is its alone, and the
// attack must leave it within 64 MB of where it started, during the attack and after it.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliPath, ensureCliBuilt, makeTempDir, repoRoot } from '../../../testing/cli-runner'
import { openRawHttp, rawGet, statuses } from '../../../testing/raw-http'

const ALLOWED_GROWTH_MB = 64
/** What the issue measured: about 180 KB of pipelined requests. */
const ATTACK_BYTES = 180 * 1024
/** How long the attacker holds its connection open without reading. */
const HOLD_MS = 4000

let home: string
let child: ChildProcessWithoutNullStreams
let url: URL
let bundle: string

/**
 * Resident memory of `pid` in MB, or null once it has gone: /proc where there is one (Linux),
 * else `ps`, which reports the same figure in KB (macOS).
 */
function residentMb(pid: number): number | null {
  try {
    if (existsSync('/proc/self/status')) {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      return match ? Number(match[1]) / 1024 : null
    }
    const kb = Number(
      spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).stdout
    )
    return kb > 0 ? kb / 1024 : null
  } catch {
    return null
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Samples the server's memory every 50 ms for `ms`. Past `ceiling` it kills the server at once
 * and says so: on a server without the bound the attack grows it by gigabytes a second, and a
 * test must not take the machine down with it.
 */
async function watch(ms: number, ceiling: number): Promise<{ peak: number; over: boolean }> {
  let peak = 0
  for (const end = Date.now() + ms; Date.now() < end; await pause(50)) {
    const now = residentMb(child.pid ?? 0) ?? 0
    peak = Math.max(peak, now)
    if (now > ceiling) {
      child.kill('SIGKILL')
      return { peak, over: true }
    }
  }
  return { peak, over: false }
}

/** The largest script in the built renderer: the one the attack asks for. */
function largestScript(): string {
  const assets = path.join(repoRoot, 'out/renderer/assets')
  const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'))
  scripts.sort((a, b) => statSync(path.join(assets, b)).size - statSync(path.join(assets, a)).size)
  const largest = scripts[0]
  if (!largest) throw new Error(`no script in ${assets}: is the renderer built?`)
  return largest
}

beforeAll(async () => {
  ensureCliBuilt()
  bundle = largestScript()
  home = await makeTempDir('bounded-memory')
  child = spawn(process.execPath, [cliPath, 'serve', '--port', '0'], {
    env: { PATH: process.env.PATH, MECATL_HOME: home }
  })
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  url = await new Promise<URL>((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const found = /Mecatl browser mode: (\S+)/.exec(out)
      if (found?.[1]) resolve(new URL(found[1]))
    })
    child.once('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${err}`)))
  })
}, 240_000)

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await Promise.race([exited, pause(10_000)])
    child.kill('SIGKILL')
  }
  if (home) await rm(home, { recursive: true, force: true })
})

/** One page load as a browser makes it: the page with the token, then the bundle. */
async function loadPage(): Promise<number[]> {
  const port = Number(url.port)
  const page = await openRawHttp(port)
  page.write(
    rawGet(port, `/?${url.searchParams.toString()}`).replace(
      '\r\n\r\n',
      '\r\nConnection: close\r\n\r\n'
    )
  )
  const script = await openRawHttp(port)
  script.write(rawGet(port, `/assets/${bundle}`))
  const answers = await Promise.all([page.read(10_000), script.read(10_000)])
  return answers.flatMap((answer) => statuses(answer.bytes))
}

/** The attack, on one connection that writes `first` and then the pipelined requests. */
async function attack(first: string): Promise<{ start: number; peak: number; after: number }> {
  expect(await loadPage()).toEqual([200, 200])
  await pause(500)
  const start = residentMb(child.pid ?? 0) ?? 0
  const port = Number(url.port)
  const one = rawGet(port, `/assets/${bundle}`)
  const attacker = await openRawHttp(port)
  attacker.write(first + one.repeat(Math.ceil(ATTACK_BYTES / one.length)))
  const during = await watch(HOLD_MS, start + ALLOWED_GROWTH_MB)
  attacker.destroy()
  expect(during.over, `the attack grew the server past ${during.peak.toFixed(0)} MB`).toBe(false)
  // After the attacker has gone, nothing it caused may still be held or still be growing.
  const after = await watch(2000, start + ALLOWED_GROWTH_MB)
  expect(after.over, `after the attack the server grew to ${after.peak.toFixed(0)} MB`).toBe(false)
  return { start, peak: during.peak, after: residentMb(child.pid ?? 0) ?? 0 }
}

describe('browser mode under a pipelining attack', () => {
  it('stays within 64 MB of its start while a connection without the token pipelines the bundle', async () => {
    const { start, peak, after } = await attack('')
    expect(peak - start).toBeLessThan(ALLOWED_GROWTH_MB)
    expect(after - start).toBeLessThan(ALLOWED_GROWTH_MB)
    // And it still serves a page load as before.
    expect(await loadPage()).toEqual([200, 200])
  })

  it('stays within 64 MB of its start when the same connection first shows the token', async () => {
    const port = Number(url.port)
    const { start, peak, after } = await attack(rawGet(port, `/?${url.searchParams.toString()}`))
    expect(peak - start).toBeLessThan(ALLOWED_GROWTH_MB)
    expect(after - start).toBeLessThan(ALLOWED_GROWTH_MB)
    expect(await loadPage()).toEqual([200, 200])
  })
})
