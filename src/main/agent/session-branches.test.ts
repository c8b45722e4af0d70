import { describe, expect, it } from 'vitest'
import { RpcError } from '../../shared/contract'
import type { TranscriptItem } from '../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'

// Edit-and-resend as a branch of the conversation: the model's next request carries the branch
// shown and nothing of the other, the old branch is kept and can be shown again, the choice
// survives a restart, and the export follows the branch shown.

const said = (items: TranscriptItem[]): string[] =>
  items.flatMap((i) => (i.kind === 'user' || i.kind === 'assistant' ? [i.text] : []))

const keyOf = (items: TranscriptItem[], text: string): string => {
  const item = items.find((i) => i.kind === 'user' && i.text === text)
  if (item?.kind !== 'user') throw new Error(`no message "${text}"`)
  return `user:${item.id}`
}

async function shown(
  h: CoreHarness,
  sessionId: string
): Promise<{ items: TranscriptItem[]; branches: { key: string; siblings: string[] }[] }> {
  const got = await h.client.call('session.get', { sessionId })
  return { items: got.transcript, branches: got.branches }
}

/** What the model was sent last, as role: text lines. */
function lastRequest(h: CoreHarness): string[] {
  const request = h.fake.chatRequests().at(-1)
  return (request?.messages ?? [])
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role}: ${m.text}`)
}

async function send(h: CoreHarness, sessionId: string, text: string): Promise<void> {
  await h.client.call('session.send', { sessionId, text })
  await h.core.sessions.idle(sessionId)
}

async function edit(
  h: CoreHarness,
  sessionId: string,
  itemKey: string,
  text: string
): Promise<void> {
  await h.client.call('session.edit', { sessionId, itemKey, text })
  await h.core.sessions.idle(sessionId)
}

describe('branches of a conversation', () => {
  it('an edit resends from that point; the old branch is kept, shown again, and continued', async () => {
    const h = await startCoreHarness({ name: 'branches' })
    h.fake.setScript([
      { text: 'Reply A.' },
      { text: 'Reply B.' },
      { text: 'Reply C.' },
      { text: 'Reply D.' }
    ])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'first')
    await send(h, id, 'second')
    const before = await shown(h, id)
    const second = keyOf(before.items, 'second')
    expect(before.branches).toEqual([])

    await edit(h, id, second, 'second, edited')
    // The model saw the conversation up to the message edited, then the new text: no "second".
    expect(lastRequest(h)).toEqual(['user: first', 'assistant: Reply A.', 'user: second, edited'])
    const edited = await shown(h, id)
    expect(said(edited.items)).toEqual(['first', 'Reply A.', 'second, edited', 'Reply C.'])
    const secondEdited = keyOf(edited.items, 'second, edited')
    expect(edited.branches).toEqual([{ key: secondEdited, siblings: [second, secondEdited] }])

    // Back to the first version: it is all there, and the next message follows it.
    await h.client.call('session.selectBranch', { sessionId: id, itemKey: second })
    expect(said((await shown(h, id)).items)).toEqual(['first', 'Reply A.', 'second', 'Reply B.'])
    await send(h, id, 'third')
    expect(lastRequest(h)).toEqual([
      'user: first',
      'assistant: Reply A.',
      'user: second',
      'assistant: Reply B.',
      'user: third'
    ])

    // After a restart the same branch is shown, both versions still there.
    await h.restart()
    const reloaded = await shown(h, id)
    expect(said(reloaded.items)).toEqual([
      'first',
      'Reply A.',
      'second',
      'Reply B.',
      'third',
      'Reply D.'
    ])
    expect(reloaded.branches).toEqual([{ key: second, siblings: [second, secondEdited] }])
    await h.client.call('session.selectBranch', { sessionId: id, itemKey: secondEdited })
    await h.restart()
    expect(said((await shown(h, id)).items)).toEqual([
      'first',
      'Reply A.',
      'second, edited',
      'Reply C.'
    ])

    // The export holds the branch shown and nothing of the other.
    const md = (await h.client.call('session.export', { sessionId: id, format: 'md' })).text
    expect(md).toContain('second, edited')
    expect(md).not.toContain('Reply B.')
    const jsonl = (await h.client.call('session.export', { sessionId: id, format: 'jsonl' })).text
    expect(jsonl).toContain('Reply C.')
    expect(jsonl).not.toContain('Reply B.')
    expect(jsonl).not.toContain('"third"')
  })

  it('the first message has versions too, and a regenerate is an edit with the same text', async () => {
    const h = await startCoreHarness({ name: 'branches-root' })
    h.fake.setScript([{ text: 'One.' }, { text: 'Two.' }])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'hello')
    const first = keyOf((await shown(h, id)).items, 'hello')
    await edit(h, id, first, 'hello')
    expect(lastRequest(h)).toEqual(['user: hello'])
    const after = await shown(h, id)
    expect(said(after.items)).toEqual(['hello', 'Two.'])
    expect(after.branches[0]?.siblings).toHaveLength(2)
  })

  it('refuses an edit of a message that is not shown, and any change while a turn runs', async () => {
    const h = await startCoreHarness({ name: 'branches-refused' })
    h.fake.setScript([
      { text: 'A.' },
      { text: 'B.' },
      { text: 'Slow and steady wins the race.', chunkDelayMs: 150 }
    ])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await send(h, id, 'one')
    const one = keyOf((await shown(h, id)).items, 'one')
    await edit(h, id, one, 'one again')
    // "one" is on the branch not shown now: editing it from here would splice two branches.
    await expect(
      h.client.call('session.edit', { sessionId: id, itemKey: one, text: 'x' })
    ).rejects.toMatchObject({ code: 'not_found' })
    await expect(
      h.client.call('session.selectBranch', { sessionId: id, itemKey: 'user:nope' })
    ).rejects.toBeInstanceOf(RpcError)
    // A reply's key is no message to branch at.
    const reply = (await shown(h, id)).items.find((i) => i.kind === 'assistant')
    await expect(
      h.client.call('session.selectBranch', {
        sessionId: id,
        itemKey: `assistant:${reply?.kind === 'assistant' ? reply.id : ''}`
      })
    ).rejects.toMatchObject({ code: 'not_found' })

    await h.client.call('session.send', { sessionId: id, text: 'slow one' })
    await expect(
      h.client.call('session.selectBranch', { sessionId: id, itemKey: one })
    ).rejects.toMatchObject({ code: 'conflict' })
    await h.core.sessions.idle(id)
  })
})
