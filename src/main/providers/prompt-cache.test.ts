import { mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startCoreHarness, type CoreHarness, type FakeFormat } from '../../../testing/core-harness'
import { createPromptCacheModel } from '../../../testing/fake-model-cache'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { placeBreakpoints } from './anthropic-cache'
import type { Step } from '../../../testing/fake-model-server'
import {
  cacheSessionTurns,
  compactionTurn,
  promptBlocks,
  runCacheSession
} from '../../../testing/cache-session'

// Prompt caching end to end: the marks the Anthropic provider puts on the wire, the fake server's
// model of the cache, the session key OpenAI gets, and a 30-turn session whose every request
// starts with the bytes of the one before it.

interface Body {
  tools?: Record<string, unknown>[]
  system?: unknown
  messages?: { role: string; content: unknown }[]
  prompt_cache_key?: string
}

const bodies = (h: CoreHarness): Body[] =>
  h.fake.requests.filter((r) => r.normalized).map((r) => r.body as Body)

/** Where the marks are in a request: `tool:<name>`, `system`, `message:<index>:<block>`. */
function marks(body: Body): { at: string; control: unknown }[] {
  const out: { at: string; control: unknown }[] = []
  for (const tool of body.tools ?? []) {
    if (tool['cache_control'])
      out.push({ at: `tool:${String(tool['name'])}`, control: tool['cache_control'] })
  }
  if (Array.isArray(body.system)) {
    for (const block of body.system as Record<string, unknown>[]) {
      if (block['cache_control']) out.push({ at: 'system', control: block['cache_control'] })
    }
  }
  ;(body.messages ?? []).forEach((message, i) => {
    if (!Array.isArray(message.content)) return
    ;(message.content as Record<string, unknown>[]).forEach((block, j) => {
      if (block['cache_control'])
        out.push({ at: `message:${i}:${j}`, control: block['cache_control'] })
    })
  })
  return out
}

const toolTurn: Step[] = [
  { text: 'Reading.', toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] },
  { text: 'Read it.' },
  { text: 'Second answer.' }
]

async function twoTurns(
  format: FakeFormat,
  settings?: Record<string, unknown>
): Promise<CoreHarness> {
  const h = await startCoreHarness({
    name: 'prompt-cache',
    format,
    script: toolTurn,
    files: { 'a.txt': 'alpha\n' }
  })
  if (settings) {
    // The provider entry with one more key, written the way a person edits the file.
    const { readFile, writeFile } = await import('node:fs/promises')
    const YAML = (await import('yaml')).default
    const parsed = YAML.parse(await readFile(h.config, 'utf8')) as {
      providers: Record<string, unknown>[]
    }
    parsed.providers = parsed.providers.map((p) => ({ ...p, ...settings }))
    await writeFile(h.config, YAML.stringify(parsed))
  }
  const { id } = await h.client.call('session.create', { workspace: h.workspace })
  for (const text of ['first question', 'second question']) {
    await h.client.call('session.send', { sessionId: id, text })
    await h.core.sessions.idle(id)
  }
  return h
}

describe('Anthropic cache breakpoints', () => {
  it('marks the last tool, the system prompt and the two newest user messages, at most four', async () => {
    const h = await twoTurns('anthropic')
    const sent = bodies(h)
    expect(sent).toHaveLength(3)
    const [first, second, third] = sent as [Body, Body, Body]
    const lastTool = `tool:${String(first.tools?.at(-1)?.['name'])}`
    const ephemeral = { type: 'ephemeral' }
    // First request: one user message so far.
    expect(marks(first)).toEqual([
      { at: lastTool, control: ephemeral },
      { at: 'system', control: ephemeral },
      { at: 'message:0:0', control: ephemeral }
    ])
    // After the tool call: the results (newest) and the question before them.
    expect(marks(second).map((m) => m.at)).toEqual([
      lastTool,
      'system',
      'message:0:0',
      'message:2:0'
    ])
    // The next turn: the marks moved forward with the conversation.
    expect(second.messages).toHaveLength(3)
    expect(marks(third).map((m) => m.at)).toEqual([
      lastTool,
      'system',
      'message:2:0',
      'message:4:0'
    ])
    for (const body of sent) expect(marks(body).length).toBeLessThanOrEqual(4)
    // Assistant messages are never marked.
    for (const m of marks(third)) {
      const index = /^message:(\d+)/.exec(m.at)?.[1]
      if (index !== undefined) expect(third.messages?.[Number(index)]?.role).toBe('user')
    }
  })

  it('reads every request after the first from the cache, and the turn usage says so', async () => {
    const h = await twoTurns('anthropic')
    const usage = h.fake.requests.filter((r) => r.normalized).map((r) => r.usage)
    expect(usage[0]).toMatchObject({ cached: 0 })
    expect(usage[0]?.cacheCreation).toBeGreaterThan(0)
    for (const later of usage.slice(1)) expect(later?.cached).toBeGreaterThan(0)
    const ends = h.events.filter((f) => f.event === 'turn.completed')
    const turnUsage = ends.map((f) => (f.payload as { usage: { cachedTokens: number } }).usage)
    expect(turnUsage).toHaveLength(2)
    expect(turnUsage[1]?.cachedTokens).toBeGreaterThan(0)
  })

  it('asks for the one-hour cache on every mark with prompt_cache: 1h', async () => {
    const h = await twoTurns('anthropic', { prompt_cache: '1h' })
    const all = bodies(h).flatMap(marks)
    expect(all.length).toBeGreaterThan(0)
    for (const m of all) expect(m.control).toEqual({ type: 'ephemeral', ttl: '1h' })
  })

  it('sends no mark at all with prompt_cache: off', async () => {
    const h = await twoTurns('anthropic', { prompt_cache: 'off' })
    expect(bodies(h)).toHaveLength(3)
    expect(bodies(h).flatMap(marks)).toEqual([])
    expect(JSON.stringify(bodies(h))).not.toContain('cache_control')
  })
})

describe('placeBreakpoints', () => {
  const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] })
  const reply: MessageParam = { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }

  it('spends all four marks on messages when there are no tools and no system prompt', () => {
    const messages = [1, 2, 3, 4, 5, 6].flatMap((n) => [user(`q${n}`), reply])
    messages.pop()
    const before = JSON.stringify(messages)
    const placed = placeBreakpoints({ tools: [], system: [], messages }, '5m')
    const marked = placed.messages.flatMap((m, i) =>
      JSON.stringify(m).includes('cache_control') ? [i] : []
    )
    expect(marked).toEqual([4, 6, 8, 10])
    // The caller's messages are left as they were: the history is never written to.
    expect(JSON.stringify(messages)).toBe(before)
  })
})

describe('OpenAI prompt_cache_key', () => {
  it('names the session on every request, so they reach the same cache', async () => {
    const h = await twoTurns('openai')
    const keys = bodies(h).map((b) => b.prompt_cache_key)
    const sessions = await h.client.call('session.list', { workspace: h.workspace })
    expect(keys).toHaveLength(3)
    expect(new Set(keys).size).toBe(1)
    expect(sessions.sessions.map((s) => s.id)).toEqual([keys[0]])
  })

  it('is left out for OpenAI-compatible servers, which may refuse unknown fields', async () => {
    const h = await twoTurns('openai-compatible')
    expect(bodies(h)).toHaveLength(3)
    for (const body of bodies(h)) expect(body).not.toHaveProperty('prompt_cache_key')
  })

  it('is left out with prompt_cache: off', async () => {
    const h = await twoTurns('openai', { prompt_cache: 'off' })
    expect(bodies(h)).toHaveLength(3)
    for (const body of bodies(h)) expect(body).not.toHaveProperty('prompt_cache_key')
  })
})

describe("the fake server's cache model", () => {
  const mark = { type: 'ephemeral' }
  const body = (system: string, messages: string[], control: unknown = mark): unknown => ({
    model: 'm',
    tools: [{ name: 'Read', description: 'reads', input_schema: {}, cache_control: control }],
    system: [{ type: 'text', text: system, cache_control: control }],
    messages: messages.map((text, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [
        { type: 'text', text, ...(i === messages.length - 1 ? { cache_control: control } : {}) }
      ]
    }))
  })

  it('reads the longest prefix an earlier request wrote, and writes the rest up to the last mark', () => {
    let now = 0
    const cache = createPromptCacheModel(() => now)
    const first = cache.account(body('system '.repeat(50), ['question '.repeat(40)]))
    expect(first.cacheRead).toBe(0)
    expect(first.input).toBe(0)
    now += 60_000
    const second = cache.account(
      body('system '.repeat(50), ['question '.repeat(40), 'answer', 'next'])
    )
    expect(second.cacheRead).toBe(first.cacheCreation)
    expect(second.cacheCreation).toBeGreaterThan(0)
    expect(second.input).toBe(0)
  })

  it('reads only up to the first changed byte, even one inside the system prompt', () => {
    const cache = createPromptCacheModel(() => 0)
    const whole = cache.account(body('system '.repeat(50), ['question']))
    const changed = cache.account(body('system '.repeat(49) + 'systeM ', ['question']))
    expect(changed.cacheRead).toBeGreaterThan(0)
    // Only the tool list before the system prompt matched.
    expect(changed.cacheRead).toBeLessThan(whole.cacheCreation / 4)
    // A different model shares nothing.
    const other = cache.account({
      ...(body('system '.repeat(50), ['question']) as object),
      model: 'n'
    })
    expect(other.cacheRead).toBe(0)
  })

  it('forgets an entry five minutes after its last use, an hour with ttl 1h', () => {
    let now = 0
    const short = createPromptCacheModel(() => now)
    short.account(body('s', ['q']))
    now += 4 * 60_000
    expect(short.account(body('s', ['q'])).cacheRead).toBeGreaterThan(0)
    now += 4 * 60_000 // 8 minutes after the write, 4 after the hit that refreshed it
    expect(short.account(body('s', ['q'])).cacheRead).toBeGreaterThan(0)
    now += 5 * 60_000 + 1
    expect(short.account(body('s', ['q'])).cacheRead).toBe(0)

    now = 0
    const long = createPromptCacheModel(() => now)
    const hour = { type: 'ephemeral', ttl: '1h' }
    long.account(body('s', ['q'], hour))
    now += 50 * 60_000
    expect(long.account(body('s', ['q'], hour)).cacheRead).toBeGreaterThan(0)
  })

  it('caches nothing for a request without marks: all of it is fresh input', () => {
    const cache = createPromptCacheModel(() => 0)
    const unmarked = { model: 'm', system: 'hello', messages: [{ role: 'user', content: 'hi' }] }
    cache.account(unmarked)
    const again = cache.account(unmarked)
    expect(again).toEqual({ input: expect.any(Number), cacheRead: 0, cacheCreation: 0 })
    expect(again.input).toBeGreaterThan(0)
  })
})

describe('a 30-turn session with tool calls, a plan, a skill and a compaction', () => {
  it('sends every request as the previous one plus new messages, but for the compaction', async () => {
    const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-prefix-')))
    try {
      const run = await runCacheSession(dir, '5m')
      expect(run.exhausted).toBe(0)
      expect(new Set(run.turns.map((t) => t.turn))).toEqual(
        new Set(Array.from({ length: cacheSessionTurns }, (_, i) => i + 1))
      )
      expect(run.summaries).toHaveLength(1)
      const calls = run.turns.flatMap((t) =>
        (t.request.normalized?.messages ?? []).flatMap((m) => m.toolCalls ?? []).map((c) => c.name)
      )
      for (const name of ['Todo', 'Skill', 'Read', 'Compact']) expect(calls).toContain(name)

      const breaks: number[] = []
      for (let i = 1; i < run.turns.length; i++) {
        const before = promptBlocks(run.turns[i - 1]?.request.body)
        const after = promptBlocks(run.turns[i]?.request.body)
        // Byte for byte: the earlier request's whole prompt starts the later one.
        if (after.slice(0, before.length).join('\n') === before.join('\n')) continue
        breaks.push(run.turns[i]?.turn ?? -1)
        // Even there, the tools and the system prompt did not change.
        const head = (blocks: string[]): string =>
          blocks.filter((b) => b.startsWith('["tool"') || b.startsWith('["system"')).join('\n')
        expect(head(after)).toBe(head(before))
      }
      expect(breaks).toEqual([compactionTurn])
      // Every request after the first read from the cache, the one after the compaction included.
      for (const { request } of run.turns.slice(1)) expect(request.usage?.cached).toBeGreaterThan(0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
