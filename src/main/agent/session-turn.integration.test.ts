import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { latestToolResults, type Step } from '../../../testing/fake-model-server'
import type { TranscriptItem } from '../../shared/domain'
import { startCoreHarness, type CoreHarness as Harness } from '../../../testing/core-harness'

/** A window that answers every approval request at once, with `answer`. */
async function harness(
  format: 'openai' | 'anthropic',
  script: Step[],
  answer: (tool: string) => { decision: 'allow' | 'deny'; reason?: string } = () => ({
    decision: 'allow'
  })
): Promise<Harness> {
  const h = await startCoreHarness({
    name: 'turn',
    format,
    script,
    permissions: 'ask',
    files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' },
    core: { interactive: true }
  })
  h.client.subscribe((frame) => {
    if (frame.event === 'approval.requested') {
      const request = frame.payload as { approvalId: string; tool: string }
      void h.client.call('approval.respond', {
        approvalId: request.approvalId,
        ...answer(request.tool)
      })
    }
  })
  return h
}

async function turn(h: Harness, text: string): Promise<TranscriptItem[]> {
  const session = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: session.id, text })
  await h.core.sessions.idle(session.id)
  return (await h.client.call('session.get', { sessionId: session.id })).transcript
}

const readTwoThenWrite: Step[] = [
  {
    text: 'Reading both files.',
    toolCalls: [
      { name: 'Read', input: { path: 'a.txt' } },
      { name: 'Read', input: { path: 'b.txt' } }
    ]
  },
  (req) => {
    const contents = latestToolResults(req).map((r) => r.content)
    const joined = contents.map((c) => c.split('\t')[1]?.trim()).join('+')
    return { toolCalls: [{ name: 'Write', input: { path: 'c.txt', content: `${joined}\n` } }] }
  },
  (req) => ({ text: `Done: ${latestToolResults(req)[0]?.content}` })
]

describe.each(['openai', 'anthropic'] as const)('a session over the %s format', (format) => {
  it('reads two files in one turn, then writes a third, and the reply continues', async () => {
    const h = await harness(format, readTwoThenWrite)
    const transcript = await turn(h, 'Combine a.txt and b.txt into c.txt')

    expect(await readFile(path.join(h.workspace, 'c.txt'), 'utf8')).toBe('alpha+beta\n')
    const tools = transcript.flatMap((i) => (i.kind === 'tool' ? [i.call] : []))
    expect(tools.map((c) => [c.name, c.state])).toEqual([
      ['Read', 'done'],
      ['Read', 'done'],
      ['Write', 'done']
    ])
    const replies = transcript.flatMap((i) => (i.kind === 'assistant' ? [i.text] : []))
    expect(replies[0]).toBe('Reading both files.')
    expect(replies.at(-1)).toMatch(/^Done: Created `c.txt`/)
    const end = transcript.at(-1)
    expect(end).toMatchObject({ kind: 'turn-end', stopReason: 'end_turn', error: null })
    expect(end?.kind === 'turn-end' && end.usage.inputTokens).toBeGreaterThan(0)
    // The model is sent the folder's catalog sorted by name, every time.
    const names = (await h.core.catalogFor(h.workspace)).list().map((t) => t.name)
    expect(names).toEqual([...names].sort())
    expect(names).toEqual(
      expect.arrayContaining([
        'Copy',
        'Edit',
        'Glob',
        'Grep',
        'ListDir',
        'Move',
        'Read',
        'Remove',
        'Todo',
        'Write'
      ])
    )
    expect(h.fake.chatRequests().map((r) => r.tools)).toEqual(Array(3).fill(names))
    expect(h.fake.exhaustedRequests()).toEqual([])
  })

  it('streams the reply as deltas before the finished message', async () => {
    const h = await harness(format, [{ text: 'one two three four five six' }])
    await turn(h, 'count')
    const deltas = h.events.filter((e) => e.event === 'message.delta')
    expect(deltas.length).toBeGreaterThan(1)
    const text = deltas.map((e) => (e.payload as { delta: string }).delta).join('')
    expect(text).toBe('one two three four five six')
    expect(h.events.some((e) => e.event === 'turn.completed')).toBe(true)
  })

  it('leaves no file when the person denies the write, and the model hears the reason', async () => {
    const h = await harness(
      format,
      [
        { toolCalls: [{ name: 'Write', input: { path: 'nope.txt', content: 'x' } }] },
        (req) => ({ text: `Understood: ${latestToolResults(req)[0]?.content}` })
      ],
      () => ({ decision: 'deny', reason: 'keep the folder clean' })
    )
    const transcript = await turn(h, 'write nope.txt')
    await expect(readFile(path.join(h.workspace, 'nope.txt'))).rejects.toThrow()
    const call = transcript.find((i) => i.kind === 'tool')
    expect(call?.kind === 'tool' && call.call.state).toBe('denied')
    expect(h.fake.lastToolResults()[0]?.content).toContain('keep the folder clean')
  })
})

describe('failures the person can act on', () => {
  it('reports a provider that refuses the key as a failed turn, not a crash', async () => {
    const h = await harness('openai', [{ text: 'never' }])
    await h.core.settings.save({
      providers: [
        { id: 'fake', kind: 'openai', base_url: h.fake.openaiBaseUrl, api_key_env: 'WRONG_KEY' }
      ],
      default_model: { provider: 'fake', model: 'fake-model' }
    })
    const transcript = await turn(h, 'hello')
    const end = transcript.at(-1)
    expect(end?.kind).toBe('turn-end')
    expect(end?.kind === 'turn-end' && end.error).toMatch(/WRONG_KEY/)
    expect(h.events.some((e) => e.event === 'turn.failed')).toBe(true)
  })

  it('stops a running turn on cancel and keeps what streamed', async () => {
    const h = await harness('anthropic', [{ text: 'a b c d e f g h i j k l', chunkDelayMs: 150 }])
    const session = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: session.id, text: 'go slowly' })
    while (!h.events.some((e) => e.event === 'message.delta')) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(await h.client.call('session.cancel', { sessionId: session.id })).toEqual({
      cancelled: true
    })
    await h.core.sessions.idle(session.id)
    const { transcript } = await h.client.call('session.get', { sessionId: session.id })
    expect(transcript.at(-1)).toMatchObject({ kind: 'turn-end', stopReason: 'cancelled' })
    const reply = transcript.find((i) => i.kind === 'assistant')
    expect(reply?.kind === 'assistant' && reply.streaming).toBe(false)
    expect(reply?.kind === 'assistant' && reply.text.length).toBeGreaterThan(0)
  })
})
