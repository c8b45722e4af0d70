import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import {
  latestToolResults,
  startFakeModelServer,
  type FakeModelServer
} from '../../../testing/fake-model-server'
import type { EventFrame } from '../../shared/contract/bridge'
import type { JobSummary } from '../../shared/jobs'
import { createCore, type Core, type CoreOptions } from '../core'
import { createMemoryPair, type RpcClient } from '../rpc/memory-transport'

// The shell as the window and the CLI reach it: through a session, the router and its events.
let dir: string
let workspace: string
let fake: FakeModelServer
const cores: Core[] = []

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-jobs-rpc-')))
  workspace = path.join(dir, 'project')
  await mkdir(workspace)
  fake = await startFakeModelServer({ requireKey: 'k-1' })
})

afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose()
})

afterAll(async () => {
  await fake.close()
  await rm(dir, { recursive: true, force: true })
})

async function openCore(
  settings: Record<string, unknown> = {},
  options: Partial<CoreOptions> = {}
): Promise<{ core: Core; client: RpcClient; events: EventFrame[] }> {
  const home = await mkdtemp(path.join(dir, 'home-'))
  const config = path.join(home, 'settings.yaml')
  await writeFile(
    config,
    YAML.stringify({
      providers: [
        { id: 'fake', kind: 'openai-compatible', base_url: fake.openaiBaseUrl, api_key_env: 'KEY' }
      ],
      default_model: { provider: 'fake', model: 'fake-model' },
      ...settings
    })
  )
  const core = await createCore({
    dataDir: home,
    configPath: config,
    host: 'browser',
    interactive: true,
    modeOverride: 'allow',
    env: { ...process.env, KEY: 'k-1' },
    jobs: { tempBase: home },
    ...options
  })
  cores.push(core)
  const client = createMemoryPair(core.router, core.hub, 'window-1')
  const events: EventFrame[] = []
  client.subscribe((frame) => events.push(frame))
  return { core, client, events }
}

async function until<T>(check: () => T | undefined | null | false): Promise<T> {
  for (;;) {
    const value = check()
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const toolNames = (core: Core): string[] => core.catalog.list().map((tool) => tool.name)

describe('turning the shell off', () => {
  it('has Shell and ShellStatus by default', async () => {
    const { core } = await openCore()
    expect(toolNames(core)).toEqual(expect.arrayContaining(['Shell', 'ShellStatus']))
    // Confined by bubblewrap with the network off (the defaults), it sends nothing anywhere.
    const sandbox = await core.sandbox.prepare(core.settings.snapshot())
    expect(sandbox).toMatchObject({ state: 'confined', network: 'off' })
    const shell = core.catalog.describe().find((tool) => tool.name === 'Shell')
    expect(shell).toMatchObject({
      readOnly: false,
      capabilities: {
        privateData: true,
        untrustedInput: false,
        egress: 'none',
        destructive: true
      }
    })
    const status = core.catalog.describe().find((tool) => tool.name === 'ShellStatus')
    expect(status?.readOnly).toBe(true)
  })

  it('--no-shell removes both tools, from the CLI’s core as from any other', async () => {
    const { core } = await openCore({}, { shell: false })
    expect(toolNames(core)).not.toContain('Shell')
    expect(toolNames(core)).not.toContain('ShellStatus')
    expect(core.catalog.modelSchemas().map((s) => s.name)).not.toContain('Shell')
  })

  it('the setting shell.enabled: false removes both tools', async () => {
    const { core } = await openCore({ shell: { enabled: false } })
    expect(toolNames(core).filter((name) => name.startsWith('Shell'))).toEqual([])
  })
})

describe('jobs through the router', () => {
  it('lists a background job, streams its output to a follower, and stops it', async () => {
    const { client, events } = await openCore()
    fake.setScript([
      {
        toolCalls: [
          {
            name: 'Shell',
            input: {
              command:
                'echo serving on http://127.0.0.1:8765/; while true; do echo tick; sleep 0.05; done',
              background: true,
              description: 'Start the server'
            }
          }
        ]
      },
      (req) => ({ text: `started: ${latestToolResults(req)[0]?.content ?? ''}` })
    ])
    const session = await client.call('session.create', { workspace })
    await client.call('session.send', { sessionId: session.id, text: 'start the server' })
    await until(() => events.some((e) => e.event === 'turn.completed'))

    const { jobs } = await client.call('jobs.list', { workspace })
    expect(jobs).toHaveLength(1)
    const job = jobs[0] as JobSummary
    expect(job).toMatchObject({
      background: true,
      state: 'running',
      description: 'Start the server'
    })
    await until(() =>
      events.some(
        (e) =>
          e.event === 'job.updated' &&
          (e.payload as JobSummary).urls.some((u) => u.href === 'http://127.0.0.1:8765/')
      )
    )

    const snapshot = await client.call('jobs.output', { jobId: job.id })
    expect(snapshot.data).toContain('serving on')
    const outputs = (): string =>
      events
        .filter((e) => e.event === 'job.output')
        .map((e) => (e.payload as { data: string }).data)
        .join('')
    await until(() => outputs().includes('tick'))
    await client.call('jobs.ack', { jobId: job.id, chars: outputs().length })

    expect(await client.call('jobs.cancel', { jobId: job.id })).toEqual({ cancelled: true })
    const ended = await until(() =>
      events.find((e) => e.event === 'job.updated' && (e.payload as JobSummary).state === 'stopped')
    )
    expect((ended.payload as JobSummary).stopReason).toBe('stopped by the person')
    // Finished jobs stay listed until dismissed.
    expect((await client.call('jobs.list', { workspace })).jobs).toHaveLength(1)
    expect(await client.call('jobs.dismiss', { jobId: job.id })).toEqual({ dismissed: true })
    expect(events.some((e) => e.event === 'job.dismissed')).toBe(true)
    expect((await client.call('jobs.list', { workspace })).jobs).toEqual([])
  })

  it('lets the person stop a foreground command by its call, and tells the model so', async () => {
    const { client, events } = await openCore()
    fake.setScript([
      {
        toolCalls: [{ id: 'call-long', name: 'Shell', input: { command: 'echo begun; sleep 60' } }]
      },
      (req) => ({ text: `result: ${latestToolResults(req)[0]?.content ?? ''}` })
    ])
    const session = await client.call('session.create', { workspace })
    await client.call('session.send', { sessionId: session.id, text: 'run it' })
    const running = await until(() =>
      events.find(
        (e) =>
          e.event === 'job.updated' &&
          (e.payload as JobSummary).callId !== null &&
          (e.payload as JobSummary).state === 'running'
      )
    )
    expect((running.payload as JobSummary).background).toBe(false)
    // A job goes by its call's identity in the session (the card's id), not the provider's id.
    const callId = (running.payload as JobSummary).callId ?? ''
    expect(callId).not.toBe('call-long')
    expect(await client.call('tool.stop', { sessionId: session.id, callId })).toEqual({
      stopped: true
    })
    await until(() => events.some((e) => e.event === 'turn.completed'))
    const reply = fake.chatRequests().at(-1)
    expect(latestToolResults(reply!)[0]?.content).toMatch(/^The person stopped the command after/)
    // A foreground command leaves the list once its result is taken.
    expect((await client.call('jobs.list', { workspace })).jobs).toEqual([])
  })

  it('stops background jobs when the core shuts down, as the session ends', async () => {
    const { core } = await openCore()
    const job = await core.jobs.start({
      sessionId: 'headless',
      workspace,
      callId: null,
      command: 'sleep 60',
      background: true,
      timeoutMs: null
    })
    cores.splice(cores.indexOf(core), 1)
    await core.dispose()
    expect(job.summary()).toMatchObject({
      state: 'stopped',
      stopReason: 'stopped because the session ended'
    })
  })

  it('stops a session’s background jobs when the session is deleted, and no other session’s', async () => {
    fake.setScript([
      {
        toolCalls: [
          {
            name: 'Shell',
            input: { command: 'sleep 60', background: true, description: 'Wait' }
          }
        ]
      },
      { text: 'started' }
    ])
    const { core, client, events } = await openCore()
    const session = await client.call('session.create', { workspace })
    await client.call('session.send', { sessionId: session.id, text: 'wait in the background' })
    await until(() => events.some((e) => e.event === 'turn.completed'))
    const [job] = core.jobs.backgroundJobs(session.id)
    expect(job?.summary().state).toBe('running')
    const other = await core.jobs.start({
      sessionId: 'another',
      workspace,
      callId: null,
      command: 'sleep 60',
      background: true,
      timeoutMs: null
    })

    expect(await client.call('session.delete', { sessionId: session.id })).toEqual({
      deleted: true
    })
    // Stopped by the time the delete answered, its process group with it.
    expect(job?.summary().state).toBe('stopped')
    expect(other.summary().state).toBe('running')
  })
})
