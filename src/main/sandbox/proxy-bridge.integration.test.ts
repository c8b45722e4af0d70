import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopbackResolver, startUpstream, type Upstream } from '../../../testing/egress-stand-ins'
import { startEgressProxy, type EgressProxy } from './egress-proxy'

const BRIDGE = fileURLToPath(new URL('./proxy-bridge.mjs', import.meta.url))
/** Inside the sandbox's own network namespace every port is free. */
const INSIDE_PORT = 3128
/** How long one sandboxed run may take before the test gives up on it: a bound. */
const BOUND_MS = 15_000

let upstream: Upstream
let proxy: EgressProxy
let dir: string
let socketPath: string

beforeAll(async () => {
  upstream = await startUpstream()
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-bridge-'))
  socketPath = path.join(dir, 'egress.sock')
  proxy = await startEgressProxy({
    allowedHosts: [`allowed.test:${upstream.port}`],
    socketPath,
    resolve: loopbackResolver
  })
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
  await rm(dir, { recursive: true, force: true })
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `command` under bubblewrap with no network but the socket directory bound in. */
function confined(command: string[], env: Record<string, string> = {}): Promise<Run> {
  const args = [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--unshare-net',
    // Its own process namespace too, so nothing started in the background outlives the run.
    '--unshare-pid',
    '--die-with-parent',
    '--bind', dir, dir,
    '--',
    ...command
  ] // prettier-ignore
  return new Promise((resolve) => {
    const child = spawn('bwrap', args, { env: { PATH: process.env.PATH ?? '', ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), BOUND_MS)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

// Runs inside the sandbox: every way out it tries, and what each one gave.
const CLIENT = `
import http from 'node:http'
import net from 'node:net'
const [bridgePort, upstreamPort] = process.argv.slice(2).map(Number)
function viaProxy(host) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: bridgePort, path: 'http://' + host + ':' + upstreamPort + '/plain' })
    req.on('response', (res) => {
      let body = ''
      res.on('data', (c) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode, body }))
    })
    req.on('error', (e) => resolve({ error: e.code }))
    req.end()
  })
}
function tunnel(host) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: bridgePort, method: 'CONNECT', path: host + ':' + upstreamPort })
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) { socket.destroy(); return resolve({ status: res.statusCode }) }
      let reply = ''
      socket.on('data', (c) => (reply += c))
      socket.on('close', () => resolve({ status: 200, reply: reply.split('\\r\\n')[0] }))
      socket.write('GET /tunnelled HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n')
    })
    req.on('error', (e) => resolve({ error: e.code }))
    req.end()
  })
}
function direct() {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: upstreamPort })
    socket.on('connect', () => { socket.destroy(); resolve('connected') })
    socket.on('error', (e) => resolve(e.code))
  })
}
console.log(JSON.stringify({
  allowed: await viaProxy('allowed.test'),
  unlisted: await viaProxy('evil.test'),
  tunnel: await tunnel('allowed.test'),
  unlistedTunnel: await tunnel('evil.test'),
  direct: await direct()
}))
`

describe('the proxy bridge inside bubblewrap', () => {
  it('reaches a listed host through the proxy, not an unlisted one, and nothing directly', async () => {
    const client = path.join(dir, 'client.mjs')
    await writeFile(client, CLIENT)
    const seenBefore = upstream.seen.length
    const run = await confined([
      process.execPath, BRIDGE, socketPath, String(INSIDE_PORT), '--',
      process.execPath, client, String(INSIDE_PORT), String(upstream.port)
    ]) // prettier-ignore
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout) as Record<string, Record<string, unknown> | string>
    expect(result.allowed).toMatchObject({ status: 200 })
    expect(result.unlisted).toMatchObject({ status: 403 })
    expect((result.unlisted as { body: string }).body).toContain('sandbox.allowed_hosts')
    expect(result.tunnel).toEqual({ status: 200, reply: 'HTTP/1.1 200 OK' })
    expect(result.unlistedTunnel).toEqual({ status: 403 })
    expect(result.direct).toBe('ECONNREFUSED')
    expect(upstream.seen.slice(seenBefore).map((seen) => seen.url)).toEqual([
      '/plain',
      '/tunnelled'
    ])
  })

  it('serves in the background for curl and the usual proxy variables', async () => {
    const proxyUrl = `http://127.0.0.1:${INSIDE_PORT}`
    const up = upstream.port
    const script = [
      `${JSON.stringify(process.execPath)} ${JSON.stringify(BRIDGE)} ${JSON.stringify(socketPath)} ${INSIDE_PORT} & bridge=$!`,
      // Bounded wait for the bridge to listen: origin-form GET / is answered 400 by the proxy.
      'i=0',
      `until curl -s -o /dev/null ${proxyUrl}/; do i=$((i+1)); [ $i -gt 200 ] && exit 9; sleep 0.05; done`,
      `echo "plain $(curl -s -o /dev/null -w '%{http_code}' http://allowed.test:${up}/env)"`,
      `echo "unlisted $(curl -s -o /dev/null -w '%{http_code}' http://evil.test:${up}/)"`,
      `echo "tunnel $(curl -s -p -o /dev/null -w '%{http_connect} %{http_code}' http://allowed.test:${up}/p)"`,
      `echo "unlisted-tunnel $(curl -s -p -o /dev/null -w '%{http_connect}' http://evil.test:${up}/)"`,
      `curl -s --noproxy '*' --max-time 5 -o /dev/null http://127.0.0.1:${up}/; echo "direct $?"`,
      'kill $bridge'
    ].join('\n')
    const run = await confined(['sh', '-c', script], { http_proxy: proxyUrl })
    expect(run.stdout.trim().split('\n')).toEqual([
      'plain 200',
      'unlisted 403',
      'tunnel 200 200',
      'unlisted-tunnel 403',
      'direct 7'
    ])
    expect(run.code).toBe(0)
  })

  it('says the proxy is gone when its socket is, passes the exit status on, and fails when it cannot listen', async () => {
    const gone = path.join(dir, 'gone.sock')
    const fetchGone = `
      const res = await fetch('http://127.0.0.1:${INSIDE_PORT}/').catch((e) => e)
      console.log(res.status, (await res.text()).split('\\n')[0])`
    const answered = await confined([
      process.execPath, BRIDGE, gone, String(INSIDE_PORT), '--',
      process.execPath, '--input-type=module', '-e', fetchGone
    ]) // prettier-ignore
    expect(answered.stdout).toContain("502 Mecatl's sandbox proxy is not running")
    const status = await confined([
      process.execPath, BRIDGE, socketPath, String(INSIDE_PORT), '--', 'sh', '-c', 'exit 7'
    ]) // prettier-ignore
    expect(status.code).toBe(7)
    const taken = await confined([
      'sh', '-c',
      `${process.execPath} -e "require('http').createServer((q, r) => r.end()).listen(${INSIDE_PORT}, '127.0.0.1')" & holder=$!
       i=0; until curl -s -o /dev/null http://127.0.0.1:${INSIDE_PORT}/; do i=$((i+1)); [ $i -gt 200 ] && exit 9; sleep 0.05; done
       ${process.execPath} ${BRIDGE} ${socketPath} ${INSIDE_PORT} -- echo ran; echo "exit $?"; kill $holder`
    ]) // prettier-ignore
    expect(taken.stdout).not.toContain('ran')
    expect(taken.stdout).toContain('exit 1')
    expect(taken.stderr).toContain(`cannot listen on 127.0.0.1:${INSIDE_PORT}`)
    const ready = path.join(dir, 'ready')
    const signalled = await confined([
      'sh', '-c',
      `${process.execPath} ${BRIDGE} ${socketPath} ${INSIDE_PORT} -- sh -c 'trap "echo got-term; exit 3" TERM; touch ${ready}; while :; do sleep 0.05; done' & b=$!
       i=0; until [ -e ${ready} ]; do i=$((i+1)); [ $i -gt 200 ] && exit 9; sleep 0.05; done
       kill -TERM $b; wait $b; echo "status $?"`
    ]) // prettier-ignore
    expect(signalled.stdout.trim().split('\n')).toEqual(['got-term', 'status 3'])
    const usage = await confined([process.execPath, BRIDGE, socketPath])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('usage: node proxy-bridge.mjs')
  })
})
