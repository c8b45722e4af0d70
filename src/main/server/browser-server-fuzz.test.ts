// Throws a few thousand malformed paths, requests and WebSocket frames at a running browser
// server on loopback, then proves it still serves a page and answers a call. Seeded: a failure
// names its seed and case, and the same run can be replayed.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../core'
import {
  hostileFrames,
  hostilePath,
  hostileRequest,
  pathRequest,
  SeededRandom
} from '../../../testing/fuzz-inputs'
import { closeCode, encodeFrame, openRawSocket, rawExchange } from '../../../testing/raw-wire'
import { startBrowserServer, type BrowserServer } from './browser-server'

const SEED = 0x6d656361
const PATHS = 2000
const REQUESTS = 600
const FRAMES = 600
/** Connections in flight at once: enough to overlap, few enough for a 2-core machine. */
const PARALLEL = 16

let dir: string
let core: Core
let server: BrowserServer
const logged: string[] = []

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-fuzz-')))
  const renderer = path.join(dir, 'renderer')
  await mkdir(path.join(renderer, 'assets'), { recursive: true })
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>Mecatl</title>')
  await writeFile(path.join(renderer, 'assets', 'app.js'), 'console.log(1)')
  await writeFile(path.join(dir, 'secret.txt'), 'TOP-SECRET-NOT-SERVED')
  core = await createCore({ dataDir: path.join(dir, 'home'), host: 'browser', interactive: true })
  server = await startBrowserServer({
    router: core.router,
    hub: core.hub,
    rendererDir: renderer,
    log: (line) => logged.push(line)
  })
})
afterAll(async () => {
  await server?.close()
  await core?.dispose()
  await rm(dir, { recursive: true, force: true })
})

/** Runs `work` over `items`, `PARALLEL` at a time, and collects what each case found wrong. */
async function each<T>(
  items: T[],
  work: (item: T, index: number) => Promise<string | null>
): Promise<string[]> {
  const problems: string[] = []
  let next = 0
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      const item = items[index] as T
      const problem = await work(item, index)
      if (problem) problems.push(`case ${index}: ${problem}`)
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, lane))
  return problems
}

/** The server still does its job: the page, and a real call over a fresh socket. */
async function stillServes(): Promise<void> {
  const page = await rawExchange(
    server.port,
    `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`
  )
  expect(page.status).toBe(200)
  expect(page.bytes.toString()).toContain('<title>Mecatl</title>')
  const socket = await openRawSocket(server.port, server.token)
  socket.write(
    encodeFrame({
      opcode: 1,
      payload: Buffer.from('{"kind":"call","id":1,"method":"tools.list","input":{}}')
    })
  )
  const frames = await socket.finish()
  const answer = frames.find((frame) => frame.opcode === 1)
  expect(JSON.parse(answer?.payload.toString() ?? 'null')).toMatchObject({ kind: 'result', id: 1 })
}

describe('browser server under malformed input', () => {
  it(`answers ${PATHS} hostile paths without a 500 or a leak`, async () => {
    const rng = new SeededRandom(SEED)
    const targets = Array.from({ length: PATHS }, () => hostilePath(rng))
    const problems = await each(targets, async (target) => {
      const raw = await rawExchange(server.port, pathRequest(target, server.port))
      const shown = JSON.stringify(target.toString('latin1').slice(0, 60))
      if (raw.bytes.includes('TOP-SECRET')) return `${shown} served a file outside the renderer`
      if (raw.status === null) return `${shown} got no answer`
      if (raw.status >= 500) return `${shown} got ${raw.status}`
      return null
    })
    expect(problems).toEqual([])
    await stillServes()
  })

  it(`answers or closes ${REQUESTS} broken requests and upgrades`, async () => {
    const rng = new SeededRandom(SEED + 1)
    const requests = Array.from({ length: REQUESTS }, () =>
      hostileRequest(rng, server.port, server.token)
    )
    const problems = await each(requests, async (request) => {
      // Half-closed, so a request cut short ends too; what matters is that nothing hangs or dies.
      const raw = await rawExchange(server.port, request, { halfClose: true })
      const shown = JSON.stringify(request.toString('latin1').slice(0, 60))
      if (!raw.closedByServer) return `${shown} was left hanging`
      if (raw.status !== null && raw.status >= 500) return `${shown} got ${raw.status}`
      return null
    })
    expect(problems).toEqual([])
    await stillServes()
  })

  it(`closes ${FRAMES} sockets sending hostile frames with the right code`, async () => {
    const rng = new SeededRandom(SEED + 2)
    const cases = Array.from({ length: FRAMES }, () => hostileFrames(rng))
    const problems = await each(cases, async (frameCase) => {
      const socket = await openRawSocket(server.port, server.token)
      socket.write(frameCase.bytes)
      const frames = frameCase.closeWith === null ? await socket.finish() : await socket.closed()
      const code = closeCode(frames)
      if (frameCase.closeWith !== null && code !== frameCase.closeWith) {
        return `expected close ${frameCase.closeWith}, got ${String(code)}`
      }
      return null
    })
    expect(problems).toEqual([])
    await stillServes()
  })

  it('logged what it refused, in a bounded number of lines', () => {
    // Thousands of bad inputs, one window's worth of lines: the rest are counted, not written.
    expect(logged.length).toBeGreaterThan(0)
    expect(logged.length).toBeLessThanOrEqual(20)
    expect(logged.every((line) => line.startsWith('browser mode: '))).toBe(true)
  })
})
