import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createCore, type Core } from '../core'
import { closeCode, encodeFrame, openRawSocket, rawExchange } from '../../../testing/raw-wire'
import { startBrowserServer, type BrowserServer } from './browser-server'

let dir: string
let core: Core
let server: BrowserServer
let logged: string[]

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-server-')))
  const renderer = path.join(dir, 'renderer')
  await mkdir(renderer)
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>Mecatl</title>')
  await writeFile(path.join(dir, 'secret.txt'), 'do not serve')
  core = await createCore({ dataDir: path.join(dir, 'home'), host: 'browser', interactive: true })
  logged = []
  server = await startBrowserServer({
    router: core.router,
    hub: core.hub,
    rendererDir: renderer,
    log: (line) => logged.push(line)
  })
})
afterEach(async () => {
  await server.close()
  await core.dispose()
  await rm(dir, { recursive: true, force: true })
})

function get(pathname: string, host = `127.0.0.1:${server.port}`): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({
      host: '127.0.0.1',
      port: server.port,
      path: pathname,
      headers: { host }
    })
    req.on('response', (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
  })
}

/** Opens a socket; resolves with it when open, or with the HTTP status that refused it. */
function connect(token: string, origin?: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc?token=${token}`, {
      headers: origin ? { origin } : {}
    })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    ws.once('error', () => resolve(-1))
  })
}

function call(ws: WebSocket, method: string, input: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { kind: string; id?: number }
      if (frame.id === 7) resolve(frame)
    })
    ws.send(JSON.stringify({ kind: 'call', id: 7, method, input }))
  })
}

describe('browser server', () => {
  it('serves the renderer on loopback, with a URL that carries the token', async () => {
    expect(server.url()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=`))
    expect(server.url('/some/folder')).toContain('folder=%2Fsome%2Ffolder')
    expect(await get('/')).toBe(200)
    expect(await get('/nothing-here.js')).toBe(404)
  })

  it('never serves files outside the renderer folder', async () => {
    expect(await get('/../secret.txt')).toBe(404)
    expect(await get('/%2e%2e/secret.txt')).toBe(404)
  })

  it('refuses requests that name another host (DNS rebinding)', async () => {
    expect(await get('/', `evil.example:${server.port}`)).toBe(421)
  })

  it('answers calls over a socket with the right token and origin', async () => {
    const ws = await connect(server.token, `http://127.0.0.1:${server.port}`)
    expect(ws).toBeInstanceOf(WebSocket)
    const frame = (await call(ws as WebSocket, 'tools.list', {})) as {
      kind: string
      result: { tools: unknown[] }
    }
    expect(frame.kind).toBe('result')
    expect(frame.result.tools).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Grep' })])
    )
    ;(ws as WebSocket).close()
  })

  it('refuses a socket with a wrong or missing token', async () => {
    const origin = `http://127.0.0.1:${server.port}`
    expect(await connect('wrong-token', origin)).toBe(403)
    expect(await connect('', origin)).toBe(403)
  })

  it('answers a request line or header it cannot parse with 400, and keeps serving', async () => {
    const host = `Host: 127.0.0.1:${server.port}`
    const broken = [
      `GET /\0 HTTP/1.1\r\n${host}\r\n\r\n`,
      `GET / HTTP/1.1\r\n${host}\r\nNo colon here\r\n\r\n`,
      `GET / HTTP/9.9\r\n${host}\r\n\r\n`
    ]
    for (const request of broken) {
      expect((await rawExchange(server.port, request)).status, request).toBe(400)
    }
    const big = `GET / HTTP/1.1\r\n${host}\r\nX: ${'x'.repeat(20_000)}\r\n\r\n`
    expect((await rawExchange(server.port, big)).status).toBe(431)
    const upgrade = `GET http://[ HTTP/1.1\r\n${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`
    expect((await rawExchange(server.port, upgrade)).status).toBe(400)
    expect(await get('/')).toBe(200)
    expect(logged).toEqual(
      expect.arrayContaining([expect.stringMatching(/malformed request \(HPE_\w+\): answered 400/)])
    )
  })

  it('refuses a socket from another origin, or with none', async () => {
    expect(await connect(server.token, 'http://evil.example')).toBe(403)
    expect(await connect(server.token, `http://127.0.0.1:${server.port + 1}`)).toBe(403)
    expect(await connect(server.token)).toBe(403)
  })

  it('answers 400 to a path that is not valid percent-encoding, and keeps serving', async () => {
    for (const bad of ['/%', '/%zz', '/assets/%E0%A4%A', '/%C0%AF', '/%00']) {
      expect(await get(bad), bad).toBe(400)
    }
    const raw = await rawExchange(
      server.port,
      `GET /% HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`
    )
    expect(raw.status).toBe(400)
    expect(raw.bytes.toString()).toContain('content-type: text/plain')
    expect(await get('/')).toBe(200)
    expect(logged[0]).toBe('browser mode: answered 400 to "/%": not a valid URL path')
  })

  it('closes a socket with the code its bad frame earns, and keeps serving', async () => {
    const text = (payload: Buffer): Buffer => encodeFrame({ opcode: 1, payload })
    const cases: Array<[string, Buffer, number]> = [
      ['over the size limit', encodeFrame({ opcode: 1, length: 17n * 1024n * 1024n }), 1009],
      ['longer than 2^53', encodeFrame({ opcode: 1, length: 2n ** 60n }), 1009],
      ['invalid UTF-8', text(Buffer.from([0x7b, 0xc3, 0x28, 0x7d])), 1007],
      ['unmasked', encodeFrame({ opcode: 1, payload: Buffer.from('{}'), masked: false }), 1002],
      ['a reserved opcode', encodeFrame({ opcode: 3, payload: Buffer.from('{}') }), 1002],
      ['reserved bits', encodeFrame({ opcode: 1, payload: Buffer.from('{}'), rsv: 4 }), 1002]
    ]
    for (const [what, bytes, code] of cases) {
      const raw = await openRawSocket(server.port, server.token)
      raw.write(bytes)
      expect(closeCode(await raw.closed()), what).toBe(code)
    }
    expect(logged).toEqual([
      'browser mode: ws:1 sent a bad frame (Max payload size exceeded); closed it with 1009',
      expect.stringMatching(/^browser mode: ws:2 .*2\^53.*closed it with 1009$/),
      expect.stringMatching(/^browser mode: ws:3 .*invalid UTF-8.*closed it with 1007$/),
      expect.stringMatching(/^browser mode: ws:4 .*MASK must be set.*closed it with 1002$/),
      expect.stringMatching(/^browser mode: ws:5 .*invalid opcode 3.*closed it with 1002$/),
      expect.stringMatching(/^browser mode: ws:6 .*RSV1.*closed it with 1002$/)
    ])
    const ws = (await connect(server.token, `http://127.0.0.1:${server.port}`)) as WebSocket
    expect(await call(ws, 'tools.list', {})).toMatchObject({ kind: 'result' })
    ws.close()
  })

  it('answers a frame that is JSON but not a call, and keeps the socket open', async () => {
    const raw = await openRawSocket(server.port, server.token)
    raw.write(encodeFrame({ opcode: 1, payload: Buffer.from('not json') }))
    raw.write(encodeFrame({ opcode: 1, payload: Buffer.from('{"kind":"call","id":5}') }))
    raw.write(encodeFrame({ opcode: 1, payload: Buffer.from('[1,2,3]') }))
    raw.write(
      encodeFrame({
        opcode: 1,
        payload: Buffer.from('{"kind":"call","id":6,"method":"tools.list","input":{}}')
      })
    )
    const frames = await raw.finish()
    const answers = frames
      .filter((frame) => frame.opcode === 1)
      .map((frame) => JSON.parse(frame.payload.toString()) as { kind: string; id: number })
    expect(answers).toEqual([
      expect.objectContaining({ kind: 'error', id: 5 }),
      expect.objectContaining({ kind: 'result', id: 6 })
    ])
    expect(logged).toEqual([
      'browser mode: ws:1 sent a frame that is not JSON; ignored it',
      'browser mode: ws:1 sent a frame that is not ours; ignored it',
      'browser mode: ws:1 sent a frame that is not ours; ignored it'
    ])
  })
})
