import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { NormalizedRequest, Step } from '../../../testing/fake-model-server'
import type { TranscriptItem } from '../../shared/domain'
import { settingsSchema } from '../../shared/settings'
import { compactThreshold } from '../providers/context-window'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { SUMMARY_HEADER, SUMMARY_SYSTEM } from './compaction'

const SKILL_LINE = 'Collect the merged changes since the last tag.'

async function harness(format: 'openai' | 'anthropic', script: Step[]): Promise<CoreHarness> {
  const h = await startCoreHarness({
    name: 'compaction',
    format,
    script,
    userDir: true,
    settings: { compact_at_tokens: 1000 }
  })
  const dir = path.join(h.workspace, '.mecatl', 'skills', 'release-notes')
  await mkdir(dir, { recursive: true })
  await writeFile(
    path.join(dir, 'SKILL.md'),
    `---\nname: release-notes\ndescription: Write release notes\n---\n${SKILL_LINE}\nGroup them by area.\n`
  )
  return h
}

async function send(h: CoreHarness, sessionId: string, text: string): Promise<void> {
  await h.client.call('session.send', { sessionId, text })
  await h.core.sessions.idle(sessionId)
}

async function transcript(h: CoreHarness, sessionId: string): Promise<TranscriptItem[]> {
  return (await h.client.call('session.get', { sessionId })).transcript
}

/** The summarising request: no tools, its own instructions, answered with `text`. */
function summaryStep(text: string, seen: NormalizedRequest[] = []): Step {
  return (req) => {
    if (req.system !== SUMMARY_SYSTEM || req.tools.length > 0) {
      throw new Error('expected the summarising request')
    }
    seen.push(req)
    return { text, usage: { input: 10 } }
  }
}

/** The conversation a request carries, without the system prompt (OpenAI sends it as one). */
function convo(req: NormalizedRequest | undefined): NormalizedRequest['messages'] {
  return (req?.messages ?? []).filter((m) => m.role !== 'system')
}

function allText(req: NormalizedRequest | undefined): string {
  return convo(req)
    .map((m) => [m.text, ...(m.toolResults ?? []).map((r) => r.content)].join('\n'))
    .join('\n')
}

function count(text: string, part: string): number {
  return text.split(part).length - 1
}

describe.each(['openai', 'anthropic'] as const)('compaction over the %s format', (format) => {
  it('carries the plan and a loaded skill across two compactions, one fresh copy each', async () => {
    const summaries: NormalizedRequest[] = []
    const h = await harness(format, [
      {
        toolCalls: [
          {
            name: 'Todo',
            input: {
              items: [
                { text: 'Gather the changes', status: 'in_progress' },
                { text: 'Write the notes', status: 'pending' }
              ]
            }
          },
          { name: 'Skill', input: { name: 'release-notes' } }
        ],
        usage: { input: 10 }
      },
      // Past compact_at_tokens: the next request compacts first.
      { text: 'Planned.', usage: { input: 5000 } },
      summaryStep('SUMMARY-ONE: the release was planned.', summaries),
      {
        toolCalls: [
          {
            name: 'Todo',
            input: {
              items: [
                { text: 'Gather the changes', status: 'done' },
                { text: 'Write the notes', status: 'in_progress' }
              ]
            }
          }
        ],
        usage: { input: 10 }
      },
      { text: 'Changes gathered.', usage: { input: 5000 } },
      summaryStep('SUMMARY-TWO: changes gathered, notes next.', summaries),
      { text: 'Finished.', usage: { input: 10 } }
    ])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'Plan the release')
    await send(h, id, 'Carry on')
    await send(h, id, 'Finish')

    expect(h.fake.stepErrors()).toEqual([])
    expect(h.fake.exhaustedRequests()).toEqual([])
    // The second summariser saw the first summary without its carried block.
    expect(allText(summaries[1])).toContain('SUMMARY-ONE')
    expect(allText(summaries[1])).not.toContain('<carried-state>')
    expect(allText(summaries[1])).not.toContain(SKILL_LINE)

    const last = h.fake.chatRequests().at(-1)
    // Only the summary and the person's message (Anthropic's wire joins adjacent user turns).
    expect(convo(last)[0]?.text.startsWith(SUMMARY_HEADER)).toBe(true)
    expect(convo(last).every((m) => m.role === 'user')).toBe(true)
    const sent = allText(last)
    expect(sent).toContain('SUMMARY-TWO')
    expect(sent).not.toContain('SUMMARY-ONE')
    expect(count(sent, '<carried-state>')).toBe(1)
    expect(count(sent, SKILL_LINE)).toBe(1)
    expect(count(sent, 'Write the notes')).toBe(1)
    // Read fresh at the second compaction: the plan as it stood then.
    expect(sent).toContain('[x] Gather the changes\n[>] Write the notes')

    const items = await transcript(h, id)
    const compactions = items.filter((i) => i.kind === 'compaction')
    expect(compactions.map((c) => [c.summary, c.summarised])).toEqual([
      ['SUMMARY-ONE: the release was planned.', 4],
      ['SUMMARY-TWO: changes gathered, notes next.', 5]
    ])
  })

  it('runs when the model calls Compact, after the step, and survives a restart', async () => {
    const h = await harness(format, [
      { text: 'Hello there.', usage: { input: 10 } },
      { toolCalls: [{ name: 'Compact', input: {} }], usage: { input: 10 } },
      summaryStep('SUMMARY: the person said hello.'),
      { text: 'Tidied.', usage: { input: 10 } }
    ])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'Say hello')
    await send(h, id, 'Tidy up')

    expect(h.fake.stepErrors()).toEqual([])
    const before = h.fake.chatRequests().at(-1)
    expect(convo(before)[0]?.text.startsWith(SUMMARY_HEADER)).toBe(true)
    expect(convo(before)[0]?.text).toContain('SUMMARY: the person said hello.')
    expect(allText(before)).not.toContain('Say hello')
    // The turn the compaction was asked for in is kept whole: the call with its result.
    expect(count(allText(before), 'Tidy up')).toBe(1)
    expect(convo(before).flatMap((m) => m.toolCalls ?? [])).toEqual([
      expect.objectContaining({ name: 'Compact' })
    ])
    expect(convo(before).flatMap((m) => m.toolResults ?? [])).toEqual([
      expect.objectContaining({ content: expect.stringContaining('Compaction requested') })
    ])

    const items = await transcript(h, id)
    const kinds = items.map((i) => (i.kind === 'tool' ? `tool:${i.call.name}` : i.kind))
    expect(kinds.slice(-6)).toEqual([
      'user',
      'assistant',
      'tool:Compact',
      'compaction',
      'assistant',
      'turn-end'
    ])

    // Loaded back from the store, the history is the summary and what the compaction kept.
    await h.restart()
    h.fake.setScript([{ text: 'Still here.' }])
    expect((await transcript(h, id)).filter((i) => i.kind === 'compaction')).toHaveLength(1)
    await send(h, id, 'And now?')
    const after = h.fake.chatRequests().at(-1)
    expect(after?.messages.slice(0, before?.messages.length)).toEqual(before?.messages)
    expect(
      convo(after)
        .slice(-2)
        .map((m) => [m.role, m.text])
    ).toEqual([
      ['assistant', 'Tidied.'],
      ['user', 'And now?']
    ])
  })

  it('does nothing while there is only the current turn to keep', async () => {
    const h = await harness(format, [
      { toolCalls: [{ name: 'Compact', input: {} }], usage: { input: 5000 } },
      { text: 'Nothing older.', usage: { input: 10 } }
    ])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'Compact now')
    expect(h.fake.stepErrors()).toEqual([])
    expect(h.fake.chatRequests()).toHaveLength(2)
    expect((await transcript(h, id)).some((i) => i.kind === 'compaction')).toBe(false)
  })
})

describe('compactThreshold', () => {
  it('is compact_at_tokens when set, else three quarters of the context window', () => {
    const providers = [
      { id: 'p', kind: 'openai-compatible', base_url: 'http://x', context_windows: { m: 1000 } }
    ]
    const ref = { providerId: 'p', model: 'm' }
    expect(compactThreshold(ref, settingsSchema.parse({ providers }))).toBe(750)
    expect(compactThreshold(ref, settingsSchema.parse({ providers, compact_at_tokens: 400 }))).toBe(
      400
    )
  })
})
