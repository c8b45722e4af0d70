// Everything a local MCP server starts ends with it: a `setsid` child, a double-forked one holding
// its stdout, and one deaf to SIGTERM and SIGHUP are gone once the server is stopped, restarted
// (by a person or after it died) or its core disposed, whether the server runs in a PID
// namespace of its own, by its marker alone where there is none, or sandboxed. What a Mecatl
// killed outright left is in server-leftovers-killed.integration.test.ts.
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import type { McpServerSettingsInput } from '../../shared/mcp'
import { createCore, type Core, type CoreOptions } from '../core'
import { JOB_MARKER_VAR, parseMarker, markersInEnviron, selfOwner } from '../jobs/job-marker'
import {
  hostPid,
  killRecorded,
  parseSpawnRecords,
  stillRunning,
  type LeftoverRecord,
  type SpawnRecords
} from '../../../testing/leftover-records'
import { repoRoot } from '../../../testing/cli-runner'
import { spawningServer } from '../../../testing/mcp-test-servers'
import { PathJail } from '../workspace/path-jail'
import { ReadVersions } from '../workspace/read-versions'

/** How each kind of server is run, and whether it has a PID namespace of its own. */
const modes = [
  { mode: 'in a PID namespace of its own', server: {}, core: {}, namespaced: true },
  {
    mode: 'by its marker alone (no PID namespace)',
    server: {},
    core: { mcp: { pidNamespace: false } },
    namespaced: false
  },
  { mode: 'sandboxed (sandbox: true)', server: { sandbox: true }, core: {}, namespaced: true }
] satisfies {
  mode: string
  server: Partial<McpServerSettingsInput>
  core: Partial<CoreOptions>
  namespaced: boolean
}[]

const cleanups: (() => Promise<void>)[] = []
/** Every record a test learned, killed afterwards (if still running) so a failure leaks nothing. */
let recorded: LeftoverRecord[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  killRecorded(recorded)
  recorded = []
})

interface Setup {
  core: Core
  workspace: string
  settings: Record<string, unknown>
  /** Disposes of the core (once: the cleanup then leaves it be). */
  dispose(): Promise<void>
  /** Calls the server's `spawn` tool and returns where it and its leftovers are. */
  spawn(): Promise<SpawnRecords>
}

async function setup(mode: (typeof modes)[number]): Promise<Setup> {
  // Off /tmp, which a sandbox replaces with its own, so the records land where the test reads.
  const dir = await realpath(await mkdtemp(path.join('/var/tmp', 'mecatl-server-leftovers-')))
  const workspace = path.join(dir, 'project')
  await mkdir(workspace)
  await mkdir(path.join(dir, 'home'))
  const settings = {
    mcp: [spawningServer(workspace, 'spawning', mode.server)],
    // The server loads the SDK from this checkout: readable inside a sandbox, wherever it sits.
    sandbox: {
      readable: [path.join(repoRoot, 'node_modules'), path.join(repoRoot, 'testing')]
    }
  }
  const config = path.join(dir, 'settings.yaml')
  await writeFile(config, YAML.stringify(settings))
  const core = await createCore({
    dataDir: path.join(dir, 'data'),
    configPath: config,
    host: 'cli',
    interactive: false,
    env: { ...process.env, HOME: path.join(dir, 'home') },
    mcp: { backoff: { initialMs: 50, maxMs: 200, maxAttempts: 3, stableMs: 60_000 } },
    ...mode.core
  })
  let disposed: Promise<void> | null = null
  // The sandbox's self-test, begun at start, writes into the data folder: it finishes first.
  const settled = (): Promise<unknown> => core.sandbox.prepare(core.settings.snapshot())
  const dispose = (): Promise<void> => (disposed ??= settled().then(() => core.dispose()))
  cleanups.push(async () => {
    await dispose()
    await rm(dir, { recursive: true, force: true })
  })
  return {
    core,
    workspace,
    settings,
    dispose,
    spawn: async () => {
      const tool = (await core.catalogFor(workspace)).get('mcp__spawning__spawn')
      if (!tool) throw new Error(JSON.stringify(await core.mcp.status(workspace, true)))
      const output = await tool.call({}, context(workspace))
      const text = output.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
      if (output.isError) throw new Error(text)
      const records = parseSpawnRecords(text)
      recorded.push(records.server, ...records.leftovers)
      expect(stillRunning(records.leftovers)).toHaveLength(3)
      checkHowTheyAreFound(records, mode.namespaced)
      // A server without a namespace of its own says so in its log, and why.
      const log = (await core.mcp.log(workspace, 'spawning')).map((line) => line.text).join('\n')
      expect(log.includes('runs without a PID namespace of its own')).toBe(!mode.namespaced)
      return records
    }
  }
}

function context(workspace: string) {
  return {
    sessionId: 't',
    jail: new PathJail(workspace),
    reads: new ReadVersions(),
    signal: new AbortController().signal
  }
}

/**
 * Each leftover carries a marker naming this process, so the sweep at a next start would find it
 * (sandboxed too), and runs in the server's namespace when it has one, else in ours.
 */
function checkHowTheyAreFound(records: SpawnRecords, namespaced: boolean): void {
  const ours = `pid:[${selfOwner().pidNamespace}]`
  for (const record of [records.server, ...records.leftovers]) {
    expect(record.namespace === ours).toBe(!namespaced)
    const pid = hostPid(record)
    if (pid === null) throw new Error(`${JSON.stringify(record)} is not running`)
    const environ = readFileSync(`/proc/${pid}/environ`, 'latin1')
    const owners = markersInEnviron(environ).flatMap(parseMarker)
    expect(owners.some((entry) => entry.owner.pid === process.pid)).toBe(true)
    expect(environ).toContain(`${JOB_MARKER_VAR}=`)
  }
}

async function state(s: Setup): Promise<string> {
  const server = (await s.core.mcp.status(s.workspace)).servers[0]
  return `${server?.state} after ${server?.restarts} restart${server?.restarts === 1 ? '' : 's'}`
}

describe.each(modes)('an MCP server’s leftovers, $mode', (mode) => {
  it('end when the server is stopped by a change of settings', async () => {
    const s = await setup(mode)
    const { server, leftovers } = await s.spawn()
    const saved = await s.core.settings.save({
      ...s.settings,
      mcp: [{ ...(s.settings.mcp as object[])[0], enabled: false }]
    })
    expect(saved.saved).toBe(true)
    // A status settles the reconcile the save began: the stop is awaited there.
    expect((await s.core.mcp.status(s.workspace, true)).servers[0]?.state).toBe('disabled')
    expect(stillRunning([server, ...leftovers])).toEqual([])
  })

  it('end before a restart the person asked for starts the server again', async () => {
    const s = await setup(mode)
    const first = await s.spawn()
    await s.core.mcp.restart(s.workspace, 'spawning')
    expect(stillRunning([first.server, ...first.leftovers])).toEqual([])
    // The new server is a new one, and leaves its own.
    const second = await s.spawn()
    expect(second.server).not.toEqual(first.server)
  })

  it('end when the server dies, before it is restarted', async () => {
    const s = await setup(mode)
    const { server, leftovers } = await s.spawn()
    const pid = hostPid(server)
    if (pid === null) throw new Error('the server is not running')
    process.kill(pid, 'SIGKILL')
    // The new server starts only once the old one's leftovers are gone: by the time it is
    // ready they must be. (The restart is counted when it is scheduled, earlier.)
    await expect
      .poll(async () => state(s), { timeout: 15_000, interval: 20 })
      .toBe('ready after 1 restart')
    expect(stillRunning(leftovers)).toEqual([])
  })

  it('end when the core is disposed, as when Mecatl quits', async () => {
    const s = await setup(mode)
    const { server, leftovers } = await s.spawn()
    await s.dispose()
    expect(stillRunning([server, ...leftovers])).toEqual([])
  })
})
