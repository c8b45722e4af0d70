import { describe, expect, it } from 'vitest'
import type { Capabilities, ToolCallState, ToolCallView, ToolCard } from '../../../../shared/domain'
import type { TranscriptEntry } from './transcript-reducer'
import {
  groupSummary,
  membersWithHit,
  rowIndexesOf,
  transcriptRows,
  type GroupRow
} from './transcript-rows'

const fsRead: Capabilities = {
  privateData: true,
  untrustedInput: false,
  egress: 'none',
  destructive: false
}

// How main sends these tools' calls: each card carries its tool's declared group phrase (the
// tools' own test checks the declarations); null: the calls never fold. A name not here stands
// for a call recorded before cards came from the tools, which has none.
const grouped: Record<string, ToolCard['grouped']> = {
  Read: { one: 'read 1 file', many: 'read {n} files' },
  Grep: { one: 'searched 1 pattern', many: 'searched {n} patterns' },
  Glob: { one: 'matched 1 glob', many: 'matched {n} globs' },
  ListDir: { one: 'listed 1 folder', many: 'listed {n} folders' },
  WebSearch: { one: 'searched the web once', many: 'searched the web {n} times' },
  WebFetch: { one: 'fetched 1 page', many: 'fetched {n} pages' },
  AskUser: null
}
const cardOf = (name: string): ToolCard | undefined => {
  const phrase = grouped[name]
  return phrase === undefined ? undefined : { summary: '', grouped: phrase, resultView: 'display' }
}

let seq = 0
function tool(
  name: string,
  input: unknown,
  options: { readOnly?: boolean; state?: ToolCallState; isError?: boolean; text?: string } = {}
): TranscriptEntry {
  seq += 1
  const call: ToolCallView = {
    id: `c${seq}`,
    name,
    input,
    state: options.state ?? 'done',
    readOnly: options.readOnly ?? true,
    capabilities: fsRead,
    startedAt: 0,
    endedAt: 1,
    output:
      options.state === 'running'
        ? null
        : {
            content: [{ type: 'text', text: options.text ?? 'ok' }],
            isError: options.isError ?? false,
            external: false
          },
    refusedBy: options.state === 'denied' ? 'approver' : null,
    ...(cardOf(name) ? { card: cardOf(name) } : {})
  }
  return { key: `k${seq}`, item: { kind: 'tool', turnId: 't', call } }
}
function reply(text: string, extra: { streaming?: boolean } = {}): TranscriptEntry {
  seq += 1
  return {
    key: `k${seq}`,
    item: { kind: 'assistant', id: `a${seq}`, turnId: 't', text, at: 0, streaming: false, ...extra }
  }
}
const user = (text: string): TranscriptEntry => {
  seq += 1
  return { key: `k${seq}`, item: { kind: 'user', id: `u${seq}`, text, at: 0 } }
}
const shape = (entries: TranscriptEntry[]): string[] =>
  transcriptRows(entries).map((row) =>
    row.kind === 'group' ? `group(${row.members.length}): ${row.summary}` : row.entry.item.kind
  )

describe('transcriptRows', () => {
  it('folds consecutive read-only calls into one line that keeps every card', () => {
    const entries = [
      user('look around'),
      tool('Read', { path: 'a' }),
      tool('Read', { path: 'b' }),
      tool('Grep', { pattern: 'x' }),
      tool('Read', { path: 'c' }),
      tool('Grep', { pattern: 'y' }),
      reply('Found it.')
    ]
    expect(shape(entries)).toEqual([
      'user',
      'group(5): Read 3 files, searched 2 patterns',
      'assistant'
    ])
    const group = transcriptRows(entries)[1] as GroupRow
    expect(group.members.map((m) => m.entry)).toEqual(entries.slice(1, 6))
    expect(group.key).toBe(`group:${entries[1]?.key}`)
  })

  it('leaves out empty steps between calls, so they neither gap nor break a group', () => {
    const entries = [
      tool('Read', { path: 'a' }),
      reply(''),
      tool('Glob', { pattern: '*.ts' }),
      reply('  \n'),
      tool('ListDir', { path: '.' })
    ]
    expect(shape(entries)).toEqual(['group(3): Read 1 file, matched 1 glob, listed 1 folder'])
    expect(shape([reply(''), user('hi'), reply('')])).toEqual(['user'])
  })

  it('keeps a streaming reply, even while it is still empty', () => {
    expect(shape([user('hi'), reply('', { streaming: true })])).toEqual(['user', 'assistant'])
  })

  it('leaves a single read-only call, and calls that need attention, as cards', () => {
    expect(shape([tool('Read', {}), reply('done')])).toEqual(['tool', 'assistant'])
    for (const odd of [
      tool('Read', {}, { state: 'failed' }),
      tool('Read', {}, { isError: true }),
      tool('Read', {}, { state: 'denied' }),
      tool('Read', {}, { state: 'awaiting-approval' }),
      tool('Edit', {}, { readOnly: false }),
      tool('AskUser', {})
    ]) {
      expect(shape([tool('Read', {}), odd, tool('Read', {})])).toEqual(['tool', 'tool', 'tool'])
    }
  })

  it('breaks a run at a reply with text, and groups a run still running', () => {
    const entries = [
      tool('Read', {}),
      tool('Read', {}),
      reply('Now the tests.'),
      tool('Grep', {}),
      tool('Grep', {}, { state: 'running' })
    ]
    const rows = transcriptRows(entries)
    expect(shape(entries)).toEqual([
      'group(2): Read 2 files',
      'assistant',
      'group(2): Searched 2 patterns'
    ])
    expect(rows.map((row) => row.kind === 'group' && row.running)).toEqual([false, false, true])
  })

  it('gives each card only the chips that are news in the session', () => {
    const rows = transcriptRows([tool('Read', {}), tool('Read', {}), tool('Read', {})])
    const group = rows[0] as GroupRow
    expect(group.members.map((m) => m.chips.map((c) => c.label).join(' · '))).toEqual([
      'read-only · private',
      '',
      ''
    ])
  })

  it('is pure: the same entries give equal rows, and the input is not changed', () => {
    const entries = [tool('Read', {}), reply(''), tool('Read', {})]
    const copy = structuredClone(entries)
    expect(transcriptRows(entries)).toEqual(transcriptRows(entries))
    expect(entries).toEqual(copy)
  })
})

describe('groupSummary', () => {
  const call = (name: string): Pick<ToolCallView, 'name' | 'input' | 'card'> => ({
    name,
    input: {},
    ...(cardOf(name) ? { card: cardOf(name) } : {})
  })

  it('says each tool in the words its card gives', () => {
    expect(groupSummary([call('WebSearch'), call('WebFetch'), call('WebFetch')])).toBe(
      'Searched the web once, fetched 2 pages'
    )
  })

  it('names a call without a card by what the window shows of its name', () => {
    expect(groupSummary([call('mcp__everything__echo'), call('mcp__everything__echo')])).toBe(
      'Called everything › echo 2 times'
    )
    expect(groupSummary([call('Recorded')])).toBe('Called Recorded')
  })
})

describe('membersWithHit', () => {
  it('names the members whose call mentions the query, through Markdown marks and case', () => {
    const entries = [
      tool('Read', { path: 'notes.md' }, { text: 'the **Zebra** line' }),
      tool('Read', { path: 'other.md' }, { text: 'nothing here' })
    ]
    const group = transcriptRows(entries)[0] as GroupRow
    expect([...membersWithHit(group, 'zebra line')]).toEqual([entries[0]?.key])
    expect([...membersWithHit(group, 'other.md')]).toEqual([entries[1]?.key])
    expect(membersWithHit(group, '  ').size).toBe(0)
    expect(membersWithHit(group, 'giraffe').size).toBe(0)
  })
})

describe('rowIndexesOf', () => {
  it('maps pinned entries to the rows showing them, a group once, an empty step to none', () => {
    const entries = [user('q'), tool('Read', {}), reply(''), tool('Read', {}), reply('a')]
    const rows = transcriptRows(entries)
    expect(rows.map((row) => row.kind)).toEqual(['entry', 'group', 'entry'])
    expect(rowIndexesOf(rows, entries, [4, 1, 3])).toEqual([1, 2])
    expect(rowIndexesOf(rows, entries, [2, 99, -1])).toEqual([])
    expect(rowIndexesOf(rows, entries, [0])).toEqual([0])
  })
})
