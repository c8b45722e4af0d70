import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createCore, type Core } from '../core'
import { startBrowserServer, type BrowserServer } from './browser-server'

let dir: string
let core: Core
let server: BrowserServer

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-server-')))
  const renderer = path.join(dir, 'renderer')
  await mkdir(renderer)
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>Mecatl</title>')
  await writeFile(path.join(dir, 'secret.txt'), 'do not serve')
  core = await createCore({ dataDir: path.join(dir, 'home'), host: 'browser', interactive: true })
  server = await startBrowserServer({ router: core.router, hub: core.hub, rendererDir: renderer })
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

  it('refuses a socket from another origin, or with none', async () => {
    expect(await connect(server.token, 'http://evil.example')).toBe(403)
    expect(await connect(server.token, `http://127.0.0.1:${server.port + 1}`)).toBe(403)
    expect(await connect(server.token)).toBe(403)
  })
})
