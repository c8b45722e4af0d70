// What one connection may cost browser mode: one request without the token, a few pipelined with
// it, files streamed so a peer that stops reading holds up only a chunk, and timeouts that close
// a peer that stops reading or never finishes its request. The memory this bounds is measured in
// bounded-memory.integration.test.ts, against `mecatl serve` in its own process.
import { existsSync, readdirSync, readlinkSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../core'
import { openRawHttp, rawGet, statuses } from '../../../testing/raw-http'
import { startBrowserServer, type BrowserServer } from './browser-server'
import type { ServerLimits } from './connection-budget'

/** Far more than loopback's socket buffers hold, so a peer that stops reading stalls it. */
const BIG_BYTES = 48 * 1024 * 1024

let dir: string
let renderer: string
let core: Core
let server: BrowserServer | null = null
let logged: string[]

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-budget-')))
  renderer = path.join(dir, 'renderer')
  await mkdir(path.join(renderer, 'assets'), { recursive: true })
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>Mecatl</title>')
  await writeFile(path.join(renderer, 'assets', 'app.js'), 'console.log(1)\n'.repeat(1000))
  await writeFile(path.join(renderer, 'assets', 'big.js'), Buffer.alloc(BIG_BYTES, 0x20))
  core = await createCore({ dataDir: path.join(dir, 'home'), host: 'browser', interactive: true })
})
afterEach(async () => {
  await server?.close()
  server = null
})
afterAll(async () => {
  await core?.dispose()
  await rm(dir, { recursive: true, force: true })
})

/** How many times this process has big.js open (Linux; elsewhere 0, the checks then trivial). */
function bigOpen(): number {
  if (!existsSync('/proc/self/fd')) return 0
  const big = path.join(renderer, 'assets', 'big.js')
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(path.join('/proc/self/fd', fd)) === big
    } catch {
      return false
    }
  }).length
}

async function start(limits: Partial<ServerLimits> = {}): Promise<BrowserServer> {
  logged = []
  server = await startBrowserServer({
    router: core.router,
    hub: core.hub,
    rendererDir: renderer,
    token: 'the-token',
    log: (line) => logged.push(line),
    limits
  })
  return server
}

describe('what a connection may cost browser mode', () => {
  it('answers a connection without the token once, says Connection: close, and closes it', async () => {
    const { port } = await start()
    const client = await openRawHttp(port)
    client.write(rawGet(port, '/assets/app.js'))
    const answer = await client.read(5000)
    expect(statuses(answer.bytes)).toEqual([200])
    expect(answer.bytes.toString('latin1')).toMatch(/\r\nconnection: close\r\n/i)
    expect(answer.closedByServer).toBe(true)
  })

  it('closes a connection without the token at its second pipelined request', async () => {
    const { port } = await start()
    const client = await openRawHttp(port)
    client.write(rawGet(port, '/assets/app.js').repeat(500))
    const answer = await client.read(5000)
    expect(statuses(answer.bytes).length).toBeLessThanOrEqual(1)
    expect(answer.closedByServer).toBe(true)
    expect(logged).toEqual([
      'browser mode: closed a connection without the token that sent a second request'
    ])
  })

  it('keeps a connection that showed the token alive, and answers a few pipelined in order', async () => {
    const { port } = await start()
    const client = await openRawHttp(port)
    client.write(rawGet(port, '/?token=the-token') + rawGet(port, '/assets/app.js').repeat(2))
    const answer = await client.read(1500)
    expect(statuses(answer.bytes)).toEqual([200, 200, 200])
    expect(answer.bytes.toString('latin1')).toMatch(/\r\nconnection: keep-alive\r\n/i)
    // Still open when the bound ran out: the keep-alive timeout (5 s) had not come.
    expect(answer.closedByServer).toBe(false)
  })

  it('closes a connection with the token that pipelines more than a few requests', async () => {
    const { port } = await start({ maxPipelined: 4 })
    const client = await openRawHttp(port)
    client.write(rawGet(port, '/?token=the-token') + rawGet(port, '/assets/big.js').repeat(400))
    const answer = await client.read(5000)
    expect(answer.closedByServer).toBe(true)
    expect(statuses(answer.bytes).length).toBeLessThanOrEqual(4)
    expect(logged).toEqual([
      'browser mode: closed a connection that pipelined more than 4 requests'
    ])
  })

  it('lets go of the files of answers queued behind one the peer stopped reading', async () => {
    const { port } = await start()
    const client = await openRawHttp(port)
    client.write(rawGet(port, '/?token=the-token') + rawGet(port, '/assets/big.js').repeat(3))
    await new Promise((resolve) => setTimeout(resolve, 500))
    if (existsSync('/proc/self/fd')) expect(bigOpen()).toBe(3)
    client.destroy()
    // Node tells an answer still queued nothing when its socket closes; ours hear it anyway.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(bigOpen()).toBe(0)
  })

  it('streams a file to a peer that stops reading, and drops it after the idle timeout', async () => {
    const { port } = await start({ idleTimeoutMs: 300 })
    const client = await openRawHttp(port)
    client.write(rawGet(port, '/assets/big.js'))
    // Reading nothing for a while: the server fills loopback's buffers, stalls, and gives up.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const answer = await client.read(5000)
    expect(statuses(answer.bytes)).toEqual([200])
    expect(answer.closedByServer).toBe(true)
    // Cut short: it sent what the socket took before the stall, never the whole file.
    expect(answer.bytes.length).toBeLessThan(BIG_BYTES)
  })

  it('closes a request whose headers never finish, however slowly they trickle', async () => {
    const { port } = await start({
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      checkIntervalMs: 50
    })
    const client = await openRawHttp(port)
    client.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)
    // A byte every 50 ms keeps the connection from ever being idle.
    const trickle = setInterval(() => client.write('X-A: b\r\n'), 50)
    const answer = await client.read(5000)
    clearInterval(trickle)
    expect(statuses(answer.bytes)).toEqual([408])
    expect(answer.closedByServer).toBe(true)
  })

  it('closes, rather than answers, a malformed request behind one still being answered', async () => {
    const { port } = await start()
    const client = await openRawHttp(port)
    client.write(rawGet(port, '/assets/big.js?token=the-token'))
    client.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX: ${'x'.repeat(20_000)}\r\n\r\n`)
    const answer = await client.read(5000)
    // A 431 written here would land in the middle of the file's bytes.
    expect(statuses(answer.bytes).filter((status) => status !== 200)).toEqual([])
    expect(answer.closedByServer).toBe(true)
    expect(answer.bytes.length).toBeLessThan(BIG_BYTES)
  })

  it('refuses a WebSocket upgrade pipelined behind a request', async () => {
    const { port } = await start()
    const client = await openRawHttp(port)
    client.write(
      rawGet(port, '/assets/app.js') +
        [
          'GET /rpc?token=the-token HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          `Origin: http://127.0.0.1:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          '',
          ''
        ].join('\r\n')
    )
    const answer = await client.read(5000)
    expect(answer.bytes.toString('latin1')).not.toContain('101 Switching Protocols')
    expect(answer.closedByServer).toBe(true)
  })
})
