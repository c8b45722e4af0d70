import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  closed,
  loopbackResolver,
  openTunnel,
  startUpstream,
  throughTunnel,
  type SeenRequest,
  type Upstream
} from '../../../testing/egress-stand-ins'
import { rawExchange } from '../../../testing/raw-wire'
import { startEgressProxy, type EgressLogEntry, type EgressProxy } from './egress-proxy'

let upstream: Upstream
let proxy: EgressProxy
let entries: EgressLogEntry[]
let dir: string

beforeAll(async () => {
  upstream = await startUpstream()
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-egress-'))
})
afterAll(async () => {
  await upstream.close()
  await rm(dir, { recursive: true, force: true })
})

/** A proxy allowing `allowed.test` and `*.wild.test` on the upstream's port. */
async function start(extra: Partial<Parameters<typeof startEgressProxy>[0]> = {}): Promise<void> {
  entries = []
  upstream.seen.length = 0
  proxy = await startEgressProxy({
    allowedHosts: [`allowed.test:${upstream.port}`, `*.wild.test:${upstream.port}`, 'plain.test'],
    resolve: loopbackResolver,
    log: (entry) => {
      entries.push(entry)
      // A log that fails must change nothing.
      if (entries.length % 3 === 0) throw new Error('the log is full')
    },
    ...extra
  })
}
afterEach(async () => {
  await proxy.close()
})

function get(url: string, headers = ''): string {
  return `GET ${url} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`
}

async function send(request: string | Buffer): Promise<{ status: number | null; text: string }> {
  const answer = await rawExchange(proxy.port, request)
  return { status: answer.status, text: answer.bytes.toString('latin1') }
}

function lastSeen(): SeenRequest {
  const seen = upstream.seen.at(-1)
  if (!seen) throw new Error('nothing reached the upstream')
  return seen
}

describe('plain http through the egress proxy', () => {
  it('forwards a request to a listed host, with its own Host and without hop-by-hop headers', async () => {
    await start()
    const answer = await send(
      `POST http://allowed.test:${upstream.port}/pkg?x=1 HTTP/1.1\r\n` +
        `Host: evil.test:${upstream.port}\r\n` +
        'Proxy-Authorization: Basic c2VjcmV0\r\nProxy-Connection: keep-alive\r\n' +
        'X-Hop: named by Connection\r\nTE: trailers\r\nX-Kept: 1\r\n' +
        'Content-Length: 5\r\nConnection: close, X-Hop\r\n\r\nhello'
    )
    expect(answer.status).toBe(200)
    const seen = lastSeen()
    expect(seen).toMatchObject({ method: 'POST', url: '/pkg?x=1', body: 'hello' })
    expect(seen.headers.host).toBe(`allowed.test:${upstream.port}`)
    expect(seen.headers['x-kept']).toBe('1')
    for (const hop of ['proxy-authorization', 'proxy-connection', 'x-hop', 'te']) {
      expect(seen.headers, hop).not.toHaveProperty(hop)
    }
    // And on the way back: end-to-end headers kept (both cookies), hop-by-hop ones dropped.
    expect(answer.text).toMatch(/^Set-Cookie: a=1\r$/im)
    expect(answer.text).toMatch(/^Set-Cookie: b=2\r$/im)
    expect(answer.text).toMatch(/^X-Upstream: yes\r$/im)
    expect(answer.text).not.toMatch(/X-Upstream-Hop|Proxy-Authenticate/i)
    expect(entries).toContainEqual({
      kind: 'http',
      target: `allowed.test:${upstream.port}`,
      outcome: 'allowed'
    })
  })

  it('streams a chunked body and answers with the upstream status', async () => {
    await start()
    const answer = await send(
      `PUT http://a.wild.test:${upstream.port}/up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n` +
        'Connection: close\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'
    )
    expect(answer.status).toBe(200)
    expect(lastSeen()).toMatchObject({ method: 'PUT', body: 'abcde' })
    expect(lastSeen().headers.host).toBe(`a.wild.test:${upstream.port}`)
  })

  it('refuses an unlisted host with 403 and a line that says how to allow it, whatever the Host header says', async () => {
    await start()
    const answer = await send(
      get(`http://evil.test:${upstream.port}/`, `Host: allowed.test:${upstream.port}\r\n`)
    )
    expect(answer.status).toBe(403)
    expect(answer.text).toContain(`refused a request to evil.test:${upstream.port}`)
    expect(answer.text).toContain(`add "evil.test:${upstream.port}" to sandbox.allowed_hosts`)
    expect(upstream.seen).toHaveLength(0)
    expect(entries.at(-1)).toMatchObject({ kind: 'http', outcome: 'refused' })
  })

  it('never routes by a Host header alone', async () => {
    await start()
    for (const target of ['/', '*', `//allowed.test:${upstream.port}/`]) {
      const answer = await send(get(target, `Host: allowed.test:${upstream.port}\r\n`))
      expect(answer.status, target).toBe(400)
    }
    const answer = await send(get('/', `Host: allowed.test:${upstream.port}\r\n`))
    expect(answer.text).toContain('absolute-form')
    expect(upstream.seen).toHaveLength(0)
  })

  it('finds no host in userinfo, a backslash, an escape or an address written another way', async () => {
    await start()
    const port = upstream.port
    const cases: Array<[string, number]> = [
      [`http://allowed.test:${port}@evil.test:${port}/`, 400],
      [`http://allowed.test@evil.test:${port}/`, 400],
      [`http://allowed.test:${port}\\@evil.test:${port}/`, 400],
      [`http://allowed.test%2f@evil.test:${port}/`, 400],
      [`http://allow%65d.test:${port}/`, 400],
      [`http://127.0.0.1:${port}/`, 403],
      [`http://[::ffff:127.0.0.1]:${port}/`, 403],
      [`http://2130706433:${port}/`, 400],
      [`http://0x7f.0.0.1:${port}/`, 400],
      [`http://127.1:${port}/`, 400],
      [`http://allowed.test:${port}#@evil.test/`, 400],
      [`https://allowed.test:${port}/`, 400],
      [`ftp://allowed.test:${port}/`, 400],
      [`http://wild.test:${port}/`, 403],
      [`http://allowed.test:${port + 1}/`, 403],
      ['http://plain.test:8443/', 403]
    ]
    for (const [url, status] of cases) {
      expect((await send(get(url))).status, url).toBe(status)
    }
    expect(upstream.seen).toHaveLength(0)
  })

  it('takes case and a trailing dot as the same name, and forwards the name in its plain form', async () => {
    await start()
    const answer = await send(get(`http://ALLOWED.Test.:${upstream.port}/`))
    expect(answer.status).toBe(200)
    expect(lastSeen().headers.host).toBe(`allowed.test:${upstream.port}`)
  })

  it('passes an IP literal only when it is listed literally', async () => {
    await start()
    expect((await send(get(`http://127.0.0.1:${upstream.port}/`))).status).toBe(403)
    proxy.setAllowedHosts([`127.0.0.1:${upstream.port}`])
    expect((await send(get(`http://127.0.0.1:${upstream.port}/`))).status).toBe(200)
    expect(lastSeen().headers.host).toBe(`127.0.0.1:${upstream.port}`)
    expect((await send(get(`http://allowed.test:${upstream.port}/`))).status).toBe(403)
  })

  it('judges each pipelined request of a kept-alive connection on its own', async () => {
    await start()
    const port = upstream.port
    const answer = await send(
      `GET http://allowed.test:${port}/first HTTP/1.1\r\nHost: allowed.test:${port}\r\n\r\n` +
        `GET http://evil.test:${port}/second HTTP/1.1\r\nHost: allowed.test:${port}\r\n\r\n` +
        `GET /third HTTP/1.1\r\nHost: allowed.test:${port}\r\nConnection: close\r\n\r\n`
    )
    expect(answer.text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 403'])
    expect(upstream.seen.map((seen) => seen.url)).toEqual(['/first'])
  })

  it('never answers a request with the error of the one pipelined behind it', async () => {
    await start()
    const answer = await send(
      `GET http://allowed.test:${upstream.port}/first HTTP/1.1\r\n\r\ngarbage\r\n\r\n`
    )
    // The connection may end before the first answer, but no 400 may stand in for it.
    expect(answer.text).not.toMatch(/^HTTP\/1\.1 400/)
  })

  it('answers 502 with the reason when a listed host cannot be reached or resolved', async () => {
    const free = net.createServer()
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve))
    const deadPort = (free.address() as net.AddressInfo).port
    await new Promise<void>((resolve) => free.close(() => resolve()))
    await start({ allowedHosts: [`allowed.test:${deadPort}`, 'nowhere.example'] })
    const dead = await send(get(`http://allowed.test:${deadPort}/`))
    expect(dead.status).toBe(502)
    expect(dead.text).toContain(`could not reach allowed.test:${deadPort} (ECONNREFUSED)`)
    const deadTunnel = await openTunnel(proxy.port, `allowed.test:${deadPort}`)
    expect(deadTunnel.status).toBe(502)
    expect(deadTunnel.text).toContain('ECONNREFUSED')
    const unresolved = await send(get('http://nowhere.example/'))
    expect(unresolved.status).toBe(502)
    expect(unresolved.text).toContain('could not resolve nowhere.example:80 (ENOTFOUND)')
  })
})

describe('CONNECT through the egress proxy', () => {
  it('opens a tunnel to a listed host and port, and carries bytes both ways', async () => {
    await start()
    const tunnel = await openTunnel(proxy.port, `allowed.test:${upstream.port}`)
    expect(tunnel.status).toBe(200)
    const reply = await throughTunnel(
      tunnel.socket!,
      `GET /inside HTTP/1.1\r\nHost: whatever\r\nConnection: close\r\n\r\n`
    )
    expect(reply).toMatch(/^HTTP\/1\.1 200/)
    // The tunnel is opaque: what the client says inside it is its own business.
    expect(lastSeen()).toMatchObject({ url: '/inside', headers: { host: 'whatever' } })
  })

  it('refuses a listed host on another port, an unlisted host, and a Host header that disagrees', async () => {
    await start()
    const port = upstream.port
    const cases: Array<[string, string, number]> = [
      [`allowed.test:${port + 1}`, '', 403],
      [`allowed.test:443`, '', 403],
      [`evil.test:${port}`, `X-Forwarded-Host: allowed.test:${port}\r\n`, 403],
      [`127.0.0.1:${port}`, '', 403],
      ['plain.test:80', '', 403],
      ['allowed.test', '', 400],
      [`allowed.test:${port}@evil.test:${port}`, '', 400],
      [`http://allowed.test:${port}/`, '', 400],
      [`0x7f.1:${port}`, '', 400]
    ]
    for (const [authority, headers, status] of cases) {
      const tunnel = await openTunnel(proxy.port, authority, headers)
      expect(tunnel.status, authority).toBe(status)
    }
    // openTunnel sends Host equal to the authority; here it names a listed host instead.
    const raw = await send(
      `CONNECT evil.test:${port} HTTP/1.1\r\nHost: allowed.test:${port}\r\n\r\n`
    )
    expect(raw.status).toBe(403)
    expect(raw.text).toContain(`refused a tunnel to evil.test:${port}`)
    expect(upstream.seen).toHaveLength(0)
  })

  it('forwards bytes the client sent right behind the CONNECT', async () => {
    await start()
    const socket = net.connect({ host: '127.0.0.1', port: proxy.port })
    const reply = await throughTunnel(
      socket,
      `CONNECT allowed.test:${upstream.port} HTTP/1.1\r\n\r\n` +
        `GET /early HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`
    )
    expect(reply).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200/)
    expect(lastSeen().url).toBe('/early')
  })

  it('cuts open tunnels to a host the new list leaves out, and keeps the others', async () => {
    await start()
    const kept = await openTunnel(proxy.port, `a.wild.test:${upstream.port}`)
    const cut = await openTunnel(proxy.port, `allowed.test:${upstream.port}`)
    expect([kept.status, cut.status]).toEqual([200, 200])
    proxy.setAllowedHosts([`*.wild.test:${upstream.port}`])
    expect(await closed(cut.socket!)).toBe(true)
    expect(await throughTunnel(kept.socket!, get('/still', 'Host: x\r\n'))).toMatch(
      /^HTTP\/1\.1 200/
    )
    expect((await openTunnel(proxy.port, `allowed.test:${upstream.port}`)).status).toBe(403)
  })

  it('fails closed when a new list does not parse', async () => {
    await start()
    const open = await openTunnel(proxy.port, `allowed.test:${upstream.port}`)
    expect(() => proxy.setAllowedHosts([`allowed.test:${upstream.port}`, 'bad host'])).toThrow(
      /sandbox.allowed_hosts entry "bad host"/
    )
    expect(await closed(open.socket!)).toBe(true)
    expect((await openTunnel(proxy.port, `allowed.test:${upstream.port}`)).status).toBe(403)
  })
})

describe('requests meant to break the egress proxy', () => {
  it('answers absurdly long lines with 431 and keeps serving', async () => {
    await start()
    const longUrl = `http://allowed.test:${upstream.port}/${'a'.repeat(100_000)}`
    expect((await send(get(longUrl))).status).toBe(431)
    expect(
      (
        await send(
          get(`http://allowed.test:${upstream.port}/`, `X-Big: ${'b'.repeat(100_000)}\r\n`)
        )
      ).status
    ).toBe(431)
    const longHost = `CONNECT ${'a.'.repeat(40_000)}test:443 HTTP/1.1\r\n\r\n`
    expect((await send(longHost)).status).toBe(431)
    expect((await send(get(`http://allowed.test:${upstream.port}/`))).status).toBe(200)
  })

  it('answers malformed requests with 400, never a crash, and keeps serving', async () => {
    await start()
    const port = upstream.port
    const malformed: Array<string | Buffer> = [
      'garbage\r\n\r\n',
      `GET http://allowed.test:${port}/ HTTP/9.9\r\n\r\n`,
      `GET http://allowed.test:${port}/ HTTP/1.1\r\nBad Header\r\n\r\n`,
      `GET http://allowed.test:${port}/ HTTP/1.1\r\nX: a\0b\r\n\r\n`,
      `GET http://allowed.test:${port}/a b HTTP/1.1\r\n\r\n`,
      `GET http://allowed.test:${port}/ HTTP/1.1\r\n folded: header\r\n\r\n`,
      // One body framed two ways: the smuggling classic.
      `POST http://allowed.test:${port}/ HTTP/1.1\r\nContent-Length: 4\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET http://evil.test:${port}/ HTTP/1.1\r\n\r\n`,
      `POST http://allowed.test:${port}/ HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
      `CONNECT  HTTP/1.1\r\n\r\n`,
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]),
      Buffer.from('GET http://allowed.test/\xff\xfe HTTP/1.1\r\n\r\n', 'latin1')
    ]
    for (const request of malformed) {
      const answer = await rawExchange(proxy.port, request, { halfClose: true })
      expect(answer.status, JSON.stringify(request.toString())).toBe(400)
    }
    expect(upstream.seen).toHaveLength(0)
    expect(entries.some((entry) => entry.outcome === 'malformed')).toBe(true)
    expect((await send(get(`http://allowed.test:${port}/`))).status).toBe(200)
  })

  it('survives clients that hang up at every stage', async () => {
    await start()
    const port = upstream.port
    const requests = [
      get(`http://allowed.test:${port}/`),
      `POST http://allowed.test:${port}/ HTTP/1.1\r\nContent-Length: 100000\r\n\r\npartial`,
      `CONNECT allowed.test:${port} HTTP/1.1\r\n\r\n`,
      `CONNECT evil.test:${port} HTTP/1.1\r\n\r\n`,
      `GET http://allowed.test:${port}/`
    ]
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        requests.map(
          (request) =>
            new Promise<void>((resolve) => {
              const socket = net.connect({ host: '127.0.0.1', port: proxy.port })
              socket.on('error', () => undefined)
              socket.on('close', () => resolve())
              // Hang up at once, or after the first byte of the answer.
              socket.write(request, () => (round % 2 === 0 ? socket.destroy() : undefined))
              socket.once('data', () => socket.destroy())
              setTimeout(() => socket.destroy(), 200)
            })
        )
      )
    }
    expect((await send(get(`http://allowed.test:${port}/`))).status).toBe(200)
  })

  it('closes a connection that sends its headers too slowly (slowloris)', async () => {
    await start({ headerTimeoutMs: 200 })
    const idle = net.connect({ host: '127.0.0.1', port: proxy.port })
    // Read, or a paused socket may never see the proxy's end (and never close).
    idle.resume()
    const dribble = net.connect({ host: '127.0.0.1', port: proxy.port })
    const answer: Buffer[] = []
    dribble.on('data', (chunk: Buffer) => answer.push(chunk))
    const request = `GET http://allowed.test:${upstream.port}/ HTTP/1.1\r\n${'X-Slow: 1\r\n'.repeat(400)}`
    let sent = 0
    // One byte every 10 ms: the whole request would take far longer than the bound below.
    const timer = setInterval(() => {
      if (!dribble.destroyed && sent < request.length) dribble.write(request[sent++] ?? '')
    }, 10)
    const [idleClosed, dribbleClosed] = await Promise.all([closed(idle), closed(dribble)])
    clearInterval(timer)
    expect([idleClosed, dribbleClosed]).toEqual([true, true])
    expect(sent).toBeLessThan(request.length)
    // Node answers 408 when its header bound ends it; a connection idle for the whole bound
    // (a slow machine can stall the dribble) is closed without a word. Either way: closed.
    const text = Buffer.concat(answer).toString()
    expect(text === '' || text.startsWith('HTTP/1.1 408 '), text).toBe(true)
    expect(upstream.seen).toHaveLength(0)
  })

  it('lets an open tunnel outlive the header bound', async () => {
    await start({ headerTimeoutMs: 100 })
    const tunnel = await openTunnel(proxy.port, `allowed.test:${upstream.port}`)
    expect(tunnel.status).toBe(200)
    // Several of Node's connection checks (every 25 ms at this bound) pass while it is idle.
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(await throughTunnel(tunnel.socket!, get('/later', 'Host: x\r\n'))).toMatch(
      /^HTTP\/1\.1 200/
    )
  })
})

describe('the egress proxy on a unix socket', () => {
  it('serves the same rules there, private to its owner, and removes the socket on close', async () => {
    const socketPath = path.join(dir, 'proxy.sock')
    await writeFile(socketPath, '') // not a socket: must not be replaced
    await expect(
      startEgressProxy({ allowedHosts: [], socketPath, resolve: loopbackResolver })
    ).rejects.toThrow(/not a socket; remove it or pick another path/)
    await rm(socketPath)
    await start({ socketPath })
    expect(proxy.socketPath).toBe(socketPath)
    expect((await stat(socketPath)).mode & 0o777).toBe(0o600)
    const allowed = await openTunnel(socketPath, `allowed.test:${upstream.port}`)
    expect(allowed.status).toBe(200)
    allowed.socket!.destroy()
    expect((await openTunnel(socketPath, `evil.test:${upstream.port}`)).status).toBe(403)
    await expect(
      startEgressProxy({ allowedHosts: [], socketPath, resolve: loopbackResolver })
    ).rejects.toThrow(/a socket another process is listening on/)
    await proxy.close()
    await expect(stat(socketPath)).rejects.toThrow(/ENOENT/)
    // A stale socket left by a killed Mecatl is replaced.
    const killed = spawnSync(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`
    ])
    expect(killed.signal).toBe('SIGKILL')
    expect((await stat(socketPath)).isSocket()).toBe(true)
    await start({ socketPath })
    expect((await openTunnel(socketPath, `allowed.test:${upstream.port}`)).status).toBe(200)
  })
})
