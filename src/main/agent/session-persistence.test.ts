import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import {
  startFakeModelServer,
  type FakeModelServer,
  type Step
} from '../../../e2e/fixtures/fake-model-server'
import { createCore, type Core } from '../core'
import { createMemoryPair, type RpcClient } from '../rpc/memory-transport'
import { openStore } from '../store/store'

interface Setup {
  dir: string
  home: string
  workspace: string
  config: string
  fake: FakeModelServer
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup(script: Step[]): Promise<Setup> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-persist-')))
  const workspace = path.join(dir, 'project')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'a.txt'), 'alpha\n')
  const fake = await startFakeModelServer({ script, requireKey: 'sk-test' })
  const config = path.join(dir, 'settings.yaml')
  await writeFile(
    config,
    YAML.stringify({
      providers: [
        { id: 'fake', kind: 'openai', base_url: fake.openaiBaseUrl, api_key_env: 'FAKE_KEY' }
      ],
      default_model: { provider: 'fake', model: 'fake-model' },
      permissions: { mode: 'allow' }
    })
  )
  cleanups.push(async () => {
    await fake.close()
    await rm(dir, { recursive: true, force: true })
  })
  return { dir, home: path.join(dir, 'home'), workspace, config, fake }
}

/** A core over the setup's data directory, as the app would start it again after a restart. */
async function start(
  s: Setup
): Promise<{ core: Core; client: RpcClient; stop: () => Promise<void> }> {
  const core = await createCore({
    dataDir: s.home,
    configPath: s.config,
    host: 'cli',
    interactive: false,
    env: { FAKE_KEY: 'sk-test' }
  })
  const client = createMemoryPair(core.router, core.hub)
  let stopped = false
  const stop = async (): Promise<void> => {
    if (stopped) return
    stopped = true
    client.close()
    await core.dispose()
  }
  cleanups.push(stop)
  return { core, client, stop }
}

async function say(core: Core, client: RpcClient, sessionId: string, text: string): Promise<void> {
  await client.call('session.send', { sessionId, text })
  await core.sessions.idle(sessionId)
}

const readThenAnswer: Step[] = [
  { text: 'Reading it.', toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] },
  { text: 'It says alpha.' },
  { text: 'Still alpha.' }
]

describe('recorded sessions', () => {
  it('are listed, shown and continued with their whole history after a restart', async () => {
    const s = await setup(readThenAnswer)
    const first = await start(s)
    const created = await first.client.call('session.create', { workspace: s.workspace })
    await say(first.core, first.client, created.id, 'What is in a.txt?')
    const before = await first.client.call('session.get', { sessionId: created.id })
    await first.stop()

    const again = await start(s)
    const { sessions } = await again.client.call('session.list', { workspace: s.workspace })
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({ id: created.id, title: 'What is in a.txt?' })
    expect(sessions[0]?.sizeBytes).toBeGreaterThan(0)
    const after = await again.client.call('session.get', { sessionId: created.id })
    expect(after.transcript).toEqual(before.transcript)

    await say(again.core, again.client, created.id, 'And now?')
    const resumed = s.fake.chatRequests().at(-1)
    expect(resumed?.messages.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user'
    ])
    expect(resumed?.messages.find((m) => m.role === 'tool')?.toolResults?.[0]?.content).toContain(
      'alpha'
    )
    const last = (await again.client.call('session.get', { sessionId: created.id })).transcript
    expect(last.at(-2)).toMatchObject({ kind: 'assistant', text: 'Still alpha.' })
  })

  it('can be renamed, searched, forked, exported and deleted', async () => {
    const s = await setup(readThenAnswer)
    const { core, client } = await start(s)
    const created = await client.call('session.create', { workspace: s.workspace })
    await say(core, client, created.id, 'What is in a.txt?')

    const renamed = await client.call('session.rename', { sessionId: created.id, title: 'Alpha' })
    expect(renamed.title).toBe('Alpha')
    const { hits } = await client.call('session.search', { workspace: s.workspace, query: 'SAYS' })
    expect(hits.map((h) => [h.session.title, h.snippet])).toEqual([['Alpha', 'It says alpha.']])
    expect(
      (await client.call('session.search', { workspace: s.workspace, query: 'zebra' })).hits
    ).toEqual([])

    const { transcript } = await client.call('session.get', { sessionId: created.id })
    const reply = transcript.find((i) => i.kind === 'assistant')
    const fork = await client.call('session.fork', {
      sessionId: created.id,
      itemKey: `assistant:${reply?.kind === 'assistant' ? reply.id : ''}`
    })
    expect(fork).toMatchObject({ title: 'Alpha (fork)', forkedFrom: created.id })
    const forked = (await client.call('session.get', { sessionId: fork.id })).transcript
    // The reply that asked for Read, the call with its result, and the turn closed as forked.
    expect(forked.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'turn-end'])
    expect(forked.at(-1)).toMatchObject({ stopReason: 'forked' })

    const jsonl = await client.call('session.export', { sessionId: created.id, format: 'jsonl' })
    const lines = jsonl.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string })
    expect(lines.map((l) => l.type)).toEqual(
      expect.arrayContaining([
        'session.updated',
        'turn.started',
        'transcript.item',
        'turn.completed'
      ])
    )
    expect(jsonl.fileName).toMatch(/^alpha-[0-9a-f]{8}\.jsonl$/)
    const md = await client.call('session.export', { sessionId: created.id, format: 'md' })
    expect(md.text).toContain('# Alpha')
    expect(md.text).toContain('## You\n\nWhat is in a.txt?')
    expect(md.text).toContain('### Tool `Read`: done')

    expect(await client.call('session.delete', { sessionId: created.id })).toEqual({
      deleted: true
    })
    const listed = (await client.call('session.list', { workspace: s.workspace })).sessions
    expect(listed.map((x) => x.id)).toEqual([fork.id])
    const store = openStore(s.home)
    expect(store.sessions.events(created.id)).toEqual([])
    store.close()
  })
})
