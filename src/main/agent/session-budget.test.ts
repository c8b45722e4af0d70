// Whole turns through the fake model server: the output budget and spilling, and the Todo plan.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { latestToolResults, type Step } from '../../../testing/fake-model-server'
import type { ToolCallView } from '../../shared/domain'
import { startCoreHarness, type CoreHarness as Harness } from '../../../testing/core-harness'
import { shareBudget } from './output-budget'

function harness(
  script: Step[],
  files: Record<string, string>,
  settings: Record<string, unknown> = {}
): Promise<Harness> {
  return startCoreHarness({ name: 'budget', script, files, settings })
}

async function runTurn(h: Harness, text: string): Promise<{ sessionId: string }> {
  const session = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: session.id, text })
  await h.core.sessions.idle(session.id)
  return { sessionId: session.id }
}

async function toolCalls(h: Harness, sessionId: string): Promise<ToolCallView[]> {
  const { transcript } = await h.client.call('session.get', { sessionId })
  return transcript.flatMap((item) => (item.kind === 'tool' ? [item.call] : []))
}

/** A file of `count` lines of about 50 bytes, and what Read shows of it (numbered lines). */
function numberedFile(name: string, count: number): { text: string; read: string } {
  const lines = Array.from({ length: count }, (_, i) => `${name} line ${i + 1} ${'·'.repeat(20)}`)
  return {
    text: lines.join('\n') + '\n',
    read: lines.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('\n')
  }
}

/** Takes the `cat -n` numbers off Read's lines, and its closing "(showing lines …)" note. */
function unnumbered(readOutput: string): string {
  return readOutput
    .replace(/\n\n\(showing lines \d+-\d+ of \d+[^)]*\)$/, '')
    .split('\n')
    .map((line) => line.replace(/^ *\d+\t/, ''))
    .join('\n')
}

const BUDGET = 24_000
const MARKER = /\n\[Output cut to fit this turn's tool output budget: [^\n]*\]$/

describe('the output budget of a turn', () => {
  it('gives each of three calls its share, spills the oversized one, and Read continues it exactly', async () => {
    const small = numberedFile('small', 20)
    const medium = numberedFile('medium', 100)
    const big = numberedFile('big', 400)
    const h = await harness(
      [
        {
          toolCalls: [
            { name: 'Read', input: { path: 'small.txt' } },
            { name: 'Read', input: { path: 'medium.txt' } },
            { name: 'Read', input: { path: 'big.txt' } }
          ]
        },
        (req) => {
          // What a model does with the marker: Read the saved file from the offset it names.
          const marker = latestToolResults(req)[2]?.content ?? ''
          const saved = /saved in (\S+); the rest begins at line (\d+)\./.exec(marker)
          const offset = /Read that file with offset (\d+)/.exec(marker)
          if (!saved || !offset) return { text: `no marker in: ${marker.slice(-300)}` }
          return {
            toolCalls: [{ name: 'Read', input: { path: saved[1], offset: Number(offset[1]) } }]
          }
        },
        { text: 'Read it all.' }
      ],
      { 'small.txt': small.text, 'medium.txt': medium.text, 'big.txt': big.text },
      { tool_output_budget_bytes: BUDGET }
    )
    const { sessionId } = await runTurn(h, 'read the three files')

    const [first, second] = h.fake.chatRequests().slice(1)
    const results = first ? latestToolResults(first) : []
    expect(results.map((r) => r.isError)).toEqual([false, false, false])
    // The two that fit their share arrive whole; the big one is cut to what is left.
    expect(results[0]?.content).toBe(small.read)
    expect(results[1]?.content).toBe(medium.read)
    const sizes = [small.read, medium.read, big.read].map((t) => Buffer.byteLength(t))
    const shares = shareBudget(sizes, BUDGET)
    expect(sizes[2]).toBeGreaterThan(shares[2] ?? 0)
    const cut = results[2]?.content ?? ''
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(shares[2] ?? 0)
    // It still carries most of its share: the cut is at a line end, not far from the limit.
    expect(Buffer.byteLength(cut)).toBeGreaterThan((shares[2] ?? 0) - 600)

    const calls = await toolCalls(h, sessionId)
    const spill = calls[2]?.output?.spill
    expect(spill?.kind).toBe('saved')
    if (spill?.kind !== 'saved') return
    expect(await readFile(spill.path, 'utf8')).toBe(big.read)
    expect(spill.path.startsWith(path.join(h.core.sessions.get(sessionId).spill.dir, ''))).toBe(
      true
    )

    // The follow-up Read of the saved file, from the marker's offset, returns the rest exactly.
    const [followUp] = second ? latestToolResults(second) : []
    expect(followUp?.isError).toBe(false)
    const shown = cut.replace(MARKER, '')
    expect(`${shown}\n${unnumbered(followUp?.content ?? '')}`).toBe(big.read)
    expect(calls[3]?.name).toBe('Read')
    expect(calls[3]?.output?.spill).toBeUndefined()
    expect(h.fake.exhaustedRequests()).toEqual([])
  })

  it('never sends the window a result larger than the budget', async () => {
    const big = numberedFile('big', 2000)
    const h = await harness(
      [{ toolCalls: [{ name: 'Read', input: { path: 'big.txt' } }] }, { text: 'ok' }],
      { 'big.txt': big.text },
      { tool_output_budget_bytes: 4096 }
    )
    await runTurn(h, 'read big.txt')
    const views = h.events.flatMap((e) =>
      e.event === 'transcript.item' &&
      (e.payload as { item: { kind: string } }).item.kind === 'tool'
        ? [(e.payload as { item: { call: ToolCallView } }).item.call]
        : []
    )
    const sent = views.map((v) =>
      (v.output?.content ?? []).reduce((n, b) => n + (b.type === 'text' ? b.text.length : 0), 0)
    )
    expect(Math.max(...sent)).toBeLessThanOrEqual(4096)
    expect(views.at(-1)?.output?.spill?.kind).toBe('saved')
  })
})

describe('spill.read', () => {
  it("serves a session's own saved output and refuses anything else", async () => {
    const big = numberedFile('big', 400)
    const readBig: Step = { toolCalls: [{ name: 'Read', input: { path: 'big.txt' } }] }
    const h = await harness([readBig, { text: 'a' }, readBig, { text: 'b' }], {
      'big.txt': big.text
    })
    await h.core.settings.save({
      ...h.core.settings.snapshot(),
      tool_output_budget_bytes: 2048
    })
    const a = await runTurn(h, 'read big.txt')
    const b = await runTurn(h, 'read big.txt too')
    const pathOf = async (sessionId: string): Promise<string> => {
      const spill = (await toolCalls(h, sessionId))[0]?.output?.spill
      return spill?.kind === 'saved' ? spill.path : 'no spill'
    }
    const mine = await pathOf(a.sessionId)
    const theirs = await pathOf(b.sessionId)

    const served = await h.client.call('spill.read', { sessionId: a.sessionId, path: mine })
    expect(served).toEqual({
      path: mine,
      text: big.read,
      totalBytes: Buffer.byteLength(big.read),
      shownBytes: Buffer.byteLength(big.read)
    })
    for (const requested of [theirs, path.join(h.workspace, 'big.txt'), '/etc/passwd']) {
      await expect(
        h.client.call('spill.read', { sessionId: a.sessionId, path: requested })
      ).rejects.toThrow(`\`${requested}\` is not a saved output of this session`)
    }
  })
})

describe('the Todo plan', () => {
  const plan = [
    { text: 'Read a.txt', status: 'in_progress' },
    { text: 'Write b.txt from it', status: 'pending' }
  ] as const

  it('is announced to the window, kept in session.get, and echoed after later results', async () => {
    const h = await harness(
      [
        { toolCalls: [{ name: 'Todo', input: { items: plan } }] },
        { toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] },
        { text: 'planned and read' }
      ],
      { 'a.txt': 'alpha\n' }
    )
    const { sessionId } = await runTurn(h, 'plan, then read a.txt')

    const updates = h.events.filter((e) => e.event === 'todo.updated')
    expect(updates.map((e) => e.payload)).toEqual([{ sessionId, items: plan }])
    const snapshot = await h.client.call('session.get', { sessionId })
    expect(snapshot.todos).toEqual(plan)

    const [afterTodo, afterRead] = h.fake.chatRequests().slice(1)
    // The Todo result is the plan itself, without a second copy of it.
    expect(afterTodo && latestToolResults(afterTodo)[0]?.content).toBe(
      'Plan updated (0 of 2 done):\n[>] Read a.txt\n[ ] Write b.txt from it'
    )
    expect(afterRead && latestToolResults(afterRead)[0]?.content).toBe(
      '     1\talpha\n' +
        '[Your plan (0 of 2 done); rewrite it with Todo as you go:\n[>] Read a.txt\n[ ] Write b.txt from it]'
    )
    // The window shows the plan beside the chat, not in each card.
    const read = (await toolCalls(h, sessionId))[1]
    expect(read?.output?.content).toEqual([{ type: 'text', text: '     1\talpha' }])
  })

  it('is empty in session.get before the model makes one, and echoes nothing then', async () => {
    const h = await harness(
      [{ toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] }, { text: 'read' }],
      { 'a.txt': 'alpha\n' }
    )
    const { sessionId } = await runTurn(h, 'read a.txt')
    expect((await h.client.call('session.get', { sessionId })).todos).toEqual([])
    expect(h.fake.lastToolResults()[0]?.content).toBe('     1\talpha')
    expect(h.events.some((e) => e.event === 'todo.updated')).toBe(false)
  })
})
