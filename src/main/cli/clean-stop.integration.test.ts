import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import WebSocket from 'ws'
import YAML from 'yaml'
import type { TranscriptItem } from '../../shared/domain'
import { openStore } from '../store/store'
import { cliPath, ensureCliBuilt, makeTempDir, repoRoot, runCli } from '../../../testing/cli-runner'
import {
  startFakeModelServer,
  type FakeModelServer,
  type Step
} from '../../../testing/fake-model-server'
import { hintlessServer } from '../../../testing/mcp-test-servers'
import {
  hostPid,
  killRecorded,
  parseRecord,
  type LeftoverRecord
} from '../../../testing/leftover-records'

// `serve` and `run` as real processes, stopped by a real signal while a background job (and, for
// serve, an MCP server) runs: what the core owns must be gone and the database closed when the
// process has exited, and the exit code must say how it stopped.
let dir: string
let fake: FakeModelServer

beforeAll(async () => {
  ensureCliBuilt()
  dir = await makeTempDir('clean-stop')
  fake = await startFakeModelServer({ requireKey: 'sk-test' })
}, 180_000)

afterAll(async () => {
  await fake?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

interface Setup {
  workspace: string
  home: string
  config: string
  /**
   * Where the background job writes its process group, and the MCP server its record (its pid in
   * its own PID namespace, that namespace and its start: see testing/leftover-records.ts).
   */
  pgidFile: string
  mcpPidFile: string
}

/**
 * The background job: it writes its process group and runs until killed, ignoring SIGHUP, so a
 * Mecatl that died without stopping it would leave it running (its terminal's hang-up would not
 * end it): only a stop ends it.
 */
const jobScript = `
const fs = require('node:fs')
const stat = fs.readFileSync('/proc/self/stat', 'utf8')
process.on('SIGHUP', () => {})
fs.writeFileSync('job.pgid', stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
setInterval(() => {}, 60_000)
`

/**
 * An MCP server that writes its record, then outlives the end of its stdin and ignores SIGTERM, so
 * closing it takes the MCP client its whole grace (about 4 s) before SIGKILL: a slow stop.
 */
function stubbornServer(pidFile: string): string {
  const sdk = path.join(repoRoot, 'node_modules/@modelcontextprotocol/sdk/dist/cjs/server')
  return `
const { McpServer } = require(${JSON.stringify(path.join(sdk, 'mcp.js'))})
const { StdioServerTransport } = require(${JSON.stringify(path.join(sdk, 'stdio.js'))})
const fs = require('node:fs')
const stat = fs.readFileSync('/proc/self/stat', 'utf8')
const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
fs.writeFileSync(${JSON.stringify(pidFile)}, [process.pid, fs.readlinkSync('/proc/self/ns/pid'), start].join(' '))
process.on('SIGTERM', () => {})
const server = new McpServer({ name: 'stubborn', version: '1.0.0' })
server.registerTool('ping', { description: 'Answers pong.' }, async () => ({
  content: [{ type: 'text', text: 'pong' }]
}))
void server.connect(new StdioServerTransport())
setInterval(() => {}, 60_000)
`
}

let made = 0
async function setup(mcp: 'none' | 'plain' | 'stubborn'): Promise<Setup> {
  const root = path.join(dir, `case-${++made}`)
  const workspace = path.join(root, 'project')
  const home = path.join(root, 'home')
  await mkdir(workspace, { recursive: true })
  await writeFile(path.join(workspace, 'job.js'), jobScript)
  const mcpPidFile = path.join(root, 'mcp.pid')
  const plain = hintlessServer('probe')
  const stubborn = path.join(root, 'stubborn-mcp.cjs')
  await writeFile(stubborn, stubbornServer(mcpPidFile))
  const servers = {
    none: [],
    // `exec` keeps the pid and start it wrote: they are the server's own.
    plain: [
      {
        name: 'probe',
        command: '/bin/sh',
        args: [
          '-c',
          `read -r stat < /proc/$$/stat; set -- $stat; echo "$$ $(readlink /proc/$$/ns/pid) \${22}" > '${mcpPidFile}'; exec '${plain.command}' '${plain.args?.[0]}'`
        ]
      }
    ],
    stubborn: [{ name: 'stubborn', command: process.execPath, args: [stubborn] }]
  }
  const config = path.join(root, 'settings.yaml')
  await writeFile(
    config,
    YAML.stringify({
      providers: [
        { id: 'fake', kind: 'openai', base_url: fake.openaiBaseUrl, api_key_env: 'FAKE_KEY' }
      ],
      default_model: { provider: 'fake', model: 'fake-model' },
      permissions: { mode: 'allow' },
      // The job reads its process group from /proc, which inside a sandbox is its own pid
      // namespace's; confined jobs' teardown is proved in sandbox/shell-sandbox.integration.test.ts.
      sandbox: { kind: 'none' },
      mcp: servers[mcp]
    })
  )
  return { workspace, home, config, pgidFile: path.join(workspace, 'job.pgid'), mcpPidFile }
}

/** The model starts the background job, then (`then`) goes on. */
function backgroundJob(then: Step): Step[] {
  return [
    {
      text: 'Starting it.',
      toolCalls: [{ name: 'Shell', input: { command: 'node job.js', background: true } }]
    },
    then
  ]
}

function spawnCli(args: string[], home: string): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [cliPath, ...args], {
    env: { PATH: process.env.PATH, MECATL_HOME: home, FAKE_KEY: 'sk-test' }
  })
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  return child
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

/**
 * The live processes of a process group (Linux: from /proc). A zombie waiting for init to reap it
 * is dead already and not counted.
 */
function liveMembers(pgid: number): number[] {
  const members: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    // Fields after the command (which may hold spaces): state, ppid, pgrp, ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(name))
  }
  return members
}

/** Kills what a test left of a job's group, so a failure leaves no sleepers behind. */
function killGroupAfterwards(pgid: number): void {
  onTestFinished(() => {
    if (pgid > 1 && liveMembers(pgid).length > 0) process.kill(-pgid, 'SIGKILL')
  })
}

/** Polls until `check` holds, for at most about 60 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`gave up waiting until ${what}`)
}

/** What a file holds once a process has written it. */
async function textIn(file: string): Promise<string> {
  let text = ''
  await until(() => {
    text = existsSync(file) ? readFileSync(file, 'utf8').trim() : ''
    return text !== ''
  }, `${file} is written`)
  return text
}

/** The number a file holds once a process has written it. */
async function numberIn(file: string): Promise<number> {
  return Number(await textIn(file))
}

/** Whether the process a record names still runs (not a zombie, not a reuse of its pid). */
function running(record: LeftoverRecord): boolean {
  return hostPid(record) !== null
}

/** `serve` started and connected to as the window does; resolves once its turn has finished. */
async function serveWithJob(
  s: Setup
): Promise<{ child: ChildProcessWithoutNullStreams; stderr: () => string }> {
  fake.setScript(backgroundJob({ text: 'It is running.' }))
  const child = spawnCli(
    ['serve', '--port', '0', '--workspace', s.workspace, '--config', s.config],
    s.home
  )
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const url = await new Promise<URL>((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const found = /Mecatl browser mode: (\S+)/.exec(out)
      if (found?.[1]) resolve(new URL(found[1]))
    })
    child.once('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${err}`)))
  })
  const ws = new WebSocket(`ws://${url.host}/rpc?token=${url.searchParams.get('token')}`, {
    headers: { origin: url.origin }
  })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  onTestFinished(() => ws.terminate())
  let id = 0
  const waiting = new Map<number, (result: unknown) => void>()
  let turnDone = false
  let asked = false
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as {
      kind: string
      id?: number
      event?: string
      result?: unknown
      error?: unknown
    }
    if (frame.kind === 'event' && frame.event === 'approval.requested') asked = true
    if (frame.kind === 'event' && frame.event === 'turn.completed') turnDone = true
    if (frame.id !== undefined) waiting.get(frame.id)?.(frame.result ?? frame.error)
  })
  ws.send(JSON.stringify({ kind: 'ready' }))
  const call = (method: string, input: unknown): Promise<unknown> =>
    new Promise((resolve) => {
      waiting.set(++id, resolve)
      ws.send(JSON.stringify({ kind: 'call', id, method, input }))
    })
  const session = (await call('session.create', { workspace: s.workspace })) as { id: string }
  await call('session.send', { sessionId: session.id, text: 'start the server' })
  await until(() => {
    if (asked) throw new Error('the gate asked for approval; the test runs in allow mode')
    return turnDone
  }, 'the turn is done')
  return { child, stderr: () => err }
}

describe('serve stops cleanly on SIGTERM', () => {
  it('ends the job’s process group, closes the MCP server and the database, and exits 0', async () => {
    const s = await setup('plain')
    const { child, stderr } = await serveWithJob(s)
    const pgid = await numberIn(s.pgidFile)
    const mcp = parseRecord(await textIn(s.mcpPidFile))
    killGroupAfterwards(pgid)
    onTestFinished(() => killRecorded([mcp]))
    expect(liveMembers(pgid)).not.toEqual([])
    expect(running(mcp)).toBe(true)
    // A database in WAL mode keeps its -wal file while open; a clean close checkpoints it away.
    const wal = path.join(s.home, 'mecatl.db-wal')
    expect(existsSync(wal)).toBe(true)

    child.kill('SIGTERM')
    const code = await exited(child)

    expect(code).toBe(0)
    expect(stderr()).toContain('mecatl serve: SIGTERM: stopping')
    expect(existsSync(wal)).toBe(false)
    // Gone by the time the process exited: the stop waited for them.
    expect(liveMembers(pgid)).toEqual([])
    expect(running(mcp)).toBe(false)
    const store = openStore(s.home)
    try {
      expect(store.database.db.pragma('integrity_check', { simple: true })).toBe('ok')
    } finally {
      store.close()
    }
  })

  it('quits at once on a second signal while it stops', async () => {
    const s = await setup('stubborn')
    const { child, stderr } = await serveWithJob(s)
    const pgid = await numberIn(s.pgidFile)
    killGroupAfterwards(pgid)
    const mcp = parseRecord(await textIn(s.mcpPidFile))
    onTestFinished(() => killRecorded([mcp]))

    // Two kinds of signal, so the kernel cannot merge them into one; the stubborn MCP server
    // keeps the stop going for seconds, so the second finds it still stopping.
    child.kill('SIGTERM')
    child.kill('SIGINT')
    const code = await exited(child)

    // Pending together, they are taken in the kernel's order: whichever came second decides.
    const second = /mecatl serve: (SIGINT|SIGTERM) again: quitting without waiting/.exec(stderr())
    expect(second?.[1]).toBeDefined()
    expect(code).toBe(second?.[1] === 'SIGINT' ? 130 : 143)
  })
})

describe.each([
  ['SIGTERM', 143],
  ['SIGINT', 130]
] as const)('run stopped by %s', (signal, expected) => {
  it(`records the turn as cancelled, ends the job and closes the database, and exits ${expected}`, async () => {
    const s = await setup('none')
    // The reply after the job is slow: the run is still going when the signal comes.
    fake.setScript(backgroundJob({ text: 'slow words '.repeat(50), chunkDelayMs: 5_000 }))
    const child = spawnCli(
      ['run', 'start the server', '--workspace', s.workspace, '--config', s.config, '--json'],
      s.home
    )
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    let sessionId = ''
    let jobStarted = false
    createInterface({ input: child.stdout }).on('line', (line) => {
      const event = JSON.parse(line) as { sessionId?: string; item?: TranscriptItem }
      if (event.sessionId) sessionId = event.sessionId
      if (event.item?.kind === 'tool' && event.item.call.state === 'done') jobStarted = true
    })
    await until(() => jobStarted, 'the job has started')
    const pgid = await numberIn(s.pgidFile)
    killGroupAfterwards(pgid)
    expect(liveMembers(pgid)).not.toEqual([])

    child.kill(signal)
    const code = await exited(child)

    expect(code).toBe(expected)
    expect(stderr).toContain(`mecatl run: ${signal}: stopping`)
    expect(existsSync(path.join(s.home, 'mecatl.db-wal'))).toBe(false)
    expect(liveMembers(pgid)).toEqual([])
    const shown = await runCli(['sessions', 'show', sessionId, '--json'], { home: s.home })
    expect(shown.code).toBe(0)
    const { transcript } = JSON.parse(shown.stdout) as { transcript: TranscriptItem[] }
    expect(transcript.at(-1)).toMatchObject({ kind: 'turn-end', stopReason: 'cancelled' })
  })
})
