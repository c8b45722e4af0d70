// The generic Subagent's options: output_schema, fork and model (background has its own file).
import { writeFile } from 'node:fs/promises'
import { describe, expect, it, onTestFinished } from 'vitest'
import YAML from 'yaml'
import type { ToolCallView } from '../../../shared/domain'
import type { Core } from '../../core'
import { fakeProvider, startCoreHarness, type CoreHarness } from '../../../../testing/core-harness'
import {
  latestToolResults,
  startFakeModelServer,
  type FakeModelServer,
  type NormalizedRequest
} from '../../../../testing/fake-model-server'
import { isReadOnlyCall } from '../../tools/tool'
import { SUMMARY_HEADER, SUMMARY_SYSTEM } from '../compaction'

let h: CoreHarness
let fake: FakeModelServer
let core: Core

async function start(settings?: Record<string, unknown>): Promise<string> {
  h = await startCoreHarness({
    name: 'subagent-options',
    format: 'openai-compatible',
    files: { 'notes.txt': 'the code word is pelican\n' },
    settings
  })
  fake = h.fake
  core = h.core
  return h.workspace
}

const isChild = (req: NormalizedRequest): boolean => req.system.includes('sub-agent named')

async function run(workspace: string, ...texts: string[]): Promise<ToolCallView[]> {
  const session = await core.sessions.create(workspace)
  for (const text of texts) {
    await core.sessions.send(session.id, text)
    await core.sessions.idle(session.id)
  }
  return session.transcript().flatMap((i) => (i.kind === 'tool' ? [i.call] : []))
}

const subagent = (input: Record<string, unknown>): { name: string; input: unknown } => ({
  name: 'Subagent',
  input: { task: 'count the files', tools: [], ...input }
})

const counted = {
  type: 'object',
  properties: { count: { type: 'integer' } },
  required: ['count']
}

describe('output_schema', () => {
  it('tells the child the schema and passes a matching answer back as its JSON', async () => {
    const workspace = await start()
    fake.setScript([
      { toolCalls: [subagent({ output_schema: counted })] },
      { text: '```json\n{ "count": 3 }\n```' },
      { text: 'done' }
    ])
    const calls = await run(workspace, 'count')
    const child = fake.chatRequests()[1]
    expect(child && isChild(child)).toBe(true)
    expect(child?.system).toContain('checked against a JSON Schema')
    expect(child?.system).toContain(JSON.stringify(counted))
    expect(fake.lastToolResults()[0]?.content).toBe('{"count":3}')
    const card = calls.find((c) => c.name === 'Subagent')
    expect(card).toMatchObject({ state: 'done', output: { isError: false } })
    expect(card?.output?.display).toMatchObject({ note: 'the answer matches output_schema' })
  })

  it('comes back as an error saying what did not match, with the answer, for the parent to act on', async () => {
    const workspace = await start()
    fake.setScript([
      { toolCalls: [subagent({ output_schema: counted })] },
      { text: '{"count": "three"}' },
      (req) => ({ text: `the parent saw: ${latestToolResults(req)[0]?.content}` })
    ])
    const calls = await run(workspace, 'count')
    const card = calls.find((c) => c.name === 'Subagent')
    expect(card).toMatchObject({ state: 'failed', output: { isError: true } })
    const result = fake.lastToolResults()[0]?.content ?? ''
    expect(result).toContain('does not match output_schema')
    expect(result).toContain('/count must be integer')
    expect(result).toContain('{"count": "three"}')
    expect(card?.output?.display).toMatchObject({ kind: 'subagent', status: 'failed' })
  })

  it('that cannot be used is refused before any child starts', async () => {
    const workspace = await start()
    fake.setScript([
      { toolCalls: [subagent({ output_schema: { type: 'string', pattern: '^(a+)+$' } })] },
      { text: 'done' }
    ])
    const calls = await run(workspace, 'count')
    expect(calls.find((c) => c.name === 'Subagent')).toMatchObject({ state: 'failed' })
    expect(fake.lastToolResults()[0]?.content).toMatch(/may not use `pattern`/)
    expect(fake.chatRequests().some(isChild)).toBe(false)
  })
})

describe('fork', () => {
  it('starts the child from the parent’s conversation so far, earlier turns and tool results included', async () => {
    const workspace = await start()
    fake.setScript([
      { text: 'Noted: we are renaming the project to Heron.' },
      { toolCalls: [{ name: 'Read', input: { path: 'notes.txt' } }] },
      {
        text: 'Let me ask a helper.',
        toolCalls: [subagent({ task: 'What is the code word, and the new name?', fork: true })]
      },
      { text: 'pelican, Heron' },
      { text: 'done' }
    ])
    await run(workspace, 'We rename the project to Heron.', 'Find the code word in notes.txt.')
    const child = fake.chatRequests()[3]
    expect(child && isChild(child)).toBe(true)
    expect(child?.system).toContain('You were forked from the other agent')
    const said = child?.messages.filter((m) => m.role !== 'system') ?? []
    const text = said.map((m) => m.text).join('\n')
    expect(text).toContain('We rename the project to Heron.')
    expect(text).toContain('Noted: we are renaming the project to Heron.')
    expect(text).toContain('[called Read with {"path":"notes.txt"}]')
    expect(text).toContain('the code word is pelican')
    expect(text).toContain('Let me ask a helper.')
    // Told in words: the child is offered no tools, so no tool message may reach the provider,
    // and the call that forked it is not left waiting for a result in its history.
    expect(said.every((m) => m.role === 'user' || m.role === 'assistant')).toBe(true)
    expect(said.some((m) => (m.toolCalls ?? []).length > 0)).toBe(false)
    expect(said.at(-1)).toMatchObject({
      role: 'user',
      text: 'What is the code word, and the new name?'
    })
    expect(fake.lastToolResults()[0]?.content).toBe('pelican, Heron')
  })

  it('of a conversation near its limit compacts before the child’s first request', async () => {
    const workspace = await start({ compact_at_tokens: 1000 })
    fake.setScript([
      { text: 'Noted: Heron.', usage: { input: 50 } },
      {
        toolCalls: [subagent({ task: 'What is the new name?', fork: true })],
        usage: { input: 5000 }
      },
      { text: 'The person renamed the project to Heron.' },
      { text: 'Heron' },
      { text: 'The child was asked for the name.' },
      { text: 'done' }
    ])
    await run(workspace, 'We rename the project to Heron.', 'Ask a helper for the new name.')
    const [first, second] = fake.chatRequests().slice(2)
    expect(first?.system).toBe(SUMMARY_SYSTEM)
    expect(JSON.stringify(first?.messages)).toContain('We rename the project to Heron.')
    expect(second && isChild(second)).toBe(true)
    expect(second?.messages.find((m) => m.role === 'user')?.text).toContain(SUMMARY_HEADER)
    expect(second?.messages.at(-1)).toMatchObject({ role: 'user', text: 'What is the new name?' })
    expect(fake.lastToolResults()[0]?.content).toBe('Heron')
  })

  it('is left out by default: the child starts fresh', async () => {
    const workspace = await start()
    fake.setScript([{ toolCalls: [subagent({})] }, { text: 'no idea' }, { text: 'done' }])
    await run(workspace, 'the secret is in the first message')
    const child = fake.chatRequests()[1]
    expect(JSON.stringify(child?.messages)).not.toContain('the secret is in the first message')
  })
})

describe('model', () => {
  it('runs the child on the provider and model named, from those DiscoverModels lists', async () => {
    const workspace = await start()
    const other = await startFakeModelServer({ script: [{ text: 'answered by the other one' }] })
    onTestFinished(() => other.close())
    await writeFile(
      h.config,
      YAML.stringify({
        providers: [
          { ...fakeProvider(fake, 'openai-compatible'), models: ['fake-model'] },
          {
            id: 'other',
            kind: 'openai-compatible',
            base_url: other.openaiBaseUrl,
            models: ['big-one']
          }
        ],
        default_model: { provider: 'fake', model: 'fake-model' },
        permissions: { mode: 'allow' }
      })
    )
    await core.settings.load()
    fake.setScript([
      { toolCalls: [{ name: 'DiscoverModels', input: {} }] },
      { toolCalls: [subagent({ model: { provider_id: 'other', model_id: 'big-one' } })] },
      { text: 'done' }
    ])
    await run(workspace, 'ask the big one')
    expect(fake.chatRequests().some(isChild)).toBe(false)
    const reached = other.chatRequests()
    expect(reached).toHaveLength(1)
    expect(reached[0]?.model).toBe('big-one')
    expect(reached[0] && isChild(reached[0])).toBe(true)
    expect(fake.lastToolResults()[0]?.content).toBe('answered by the other one')
    // The parent's own model stayed its own.
    expect(fake.chatRequests().map((r) => r.model)).toEqual([
      'fake-model',
      'fake-model',
      'fake-model'
    ])
  })

  it('that is not in Settings is refused with the way to find one, before any child starts', async () => {
    const workspace = await start()
    fake.setScript([
      { toolCalls: [subagent({ model: { provider_id: 'fake', model_id: 'no-such-model' } })] },
      { text: 'done' }
    ])
    const calls = await run(workspace, 'go')
    expect(calls.find((c) => c.name === 'Subagent')).toMatchObject({ state: 'failed' })
    expect(fake.lastToolResults()[0]?.content).toMatch(
      /There is no model "no-such-model" of a provider "fake" in Settings\. Call DiscoverModels/
    )
    expect(fake.chatRequests().some(isChild)).toBe(false)
  })
})

describe('read-only for a call', () => {
  it('is read-only when every tool it gives is, and never with a mutating or unknown one', async () => {
    await start()
    const tool = core.catalog.get('Subagent')
    if (!tool) throw new Error('no Subagent tool')
    const call = (tools: string[], more: Record<string, unknown> = {}): boolean =>
      isReadOnlyCall(tool, tool.inputSchema.parse({ task: 't', tools, ...more }))
    expect(call([])).toBe(true)
    expect(call(['Read', 'Grep', 'Glob'])).toBe(true)
    expect(call(['Read', 'Write'])).toBe(false)
    expect(call(['Shell'])).toBe(false)
    expect(call(['mcp__someone__anything'])).toBe(false)
    expect(call(['Read'], { fork: true, output_schema: counted })).toBe(true)
    expect(tool.readOnly).toBe(false)
  })
})
