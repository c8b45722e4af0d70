import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SessionSummary, ToolCallView } from '../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { WorkspaceTrust } from '../workspace/workspace-trust'

const readme = { toolCalls: [{ name: 'Read', input: { path: 'README.md' } }] }

async function start(trust: 'trusted' | 'untrusted' | 'unknown'): Promise<CoreHarness> {
  return startCoreHarness({
    name: 'trust-record',
    format: 'openai-compatible',
    trust,
    files: { 'README.md': '# Sample\n' }
  })
}

/** A turn that Reads README.md in the session; returns the Read's card. */
async function readIn(h: CoreHarness, sessionId: string): Promise<ToolCallView | undefined> {
  h.fake.setScript([readme, { text: 'done' }])
  await h.client.call('session.send', { sessionId, text: 'read it' })
  await h.core.sessions.idle(sessionId)
  const { transcript } = await h.client.call('session.get', { sessionId })
  return transcript.flatMap((i) => (i.kind === 'tool' ? [i.call] : [])).at(-1)
}

describe('the trust a session was made with', () => {
  it('is recorded: after a restart the session is still untrusted, though the folder is trusted now', async () => {
    const h = await start('untrusted')
    const made = await h.client.call('session.create', { workspace: h.workspace })
    expect(made.folderTrust).toBe('untrusted')
    expect((await readIn(h, made.id))?.capabilities?.untrustedInput).toBe(true)

    await h.client.call('workspace.setTrust', { path: h.workspace, trust: 'trusted' })
    await h.restart()
    const { session } = await h.client.call('session.get', { sessionId: made.id })
    expect(session.folderTrust).toBe('untrusted')
    // Its next Read is still marked: the record, not only the taint, came back.
    expect((await readIn(h, made.id))?.capabilities?.untrustedInput).toBe(true)
    // Trusting the folder applies from the next session.
    const next = await h.client.call('session.create', { workspace: h.workspace })
    expect(next.folderTrust).toBeUndefined()
    expect(next.taint).toEqual({ privateData: false, untrustedInput: false })
    expect((await readIn(h, next.id))?.capabilities?.untrustedInput).toBe(false)
  })

  it('is lost at once when the person stops trusting the folder, in every open session', async () => {
    const h = await start('trusted')
    const a = await h.client.call('session.create', { workspace: h.workspace })
    const b = await h.client.call('session.create', { workspace: h.workspace })
    expect((await readIn(h, a.id))?.capabilities?.untrustedInput).toBe(false)
    const updates: SessionSummary[] = []
    h.client.subscribe((frame) => {
      if (frame.event === 'session.updated') updates.push(frame.payload as SessionSummary)
    })

    const answer = await h.client.call('workspace.setTrust', {
      path: h.workspace,
      trust: 'untrusted'
    })
    expect(answer).toEqual({ path: h.workspace, trust: 'untrusted' })
    // The window's badges follow without a reload.
    expect(updates.map((u) => [u.id, u.folderTrust]).sort()).toEqual(
      [
        [a.id, 'untrusted'],
        [b.id, 'untrusted']
      ].sort()
    )
    expect(h.core.sessions.get(a.id).taint).toEqual({ privateData: true, untrustedInput: true })
    expect((await readIn(h, b.id))?.capabilities?.untrustedInput).toBe(true)
  })

  it('goes with a fork: the copy of an untrusted session is untrusted too', async () => {
    const h = await start('untrusted')
    const made = await h.client.call('session.create', { workspace: h.workspace })
    await readIn(h, made.id)
    const { transcript } = await h.client.call('session.get', { sessionId: made.id })
    const user = transcript.find((i) => i.kind === 'user')
    if (user?.kind !== 'user') throw new Error('the turn recorded no message')
    await h.client.call('workspace.setTrust', { path: h.workspace, trust: 'trusted' })
    const fork = await h.client.call('session.fork', {
      sessionId: made.id,
      itemKey: `user:${user.id}`
    })
    expect(fork.folderTrust).toBe('untrusted')
    expect((await readIn(h, fork.id))?.capabilities?.untrustedInput).toBe(true)
  })
})

describe('workspace.open and workspace.setTrust', () => {
  it('say unknown for a folder opened for the first time, and remember the answer', async () => {
    const h = await start('unknown')
    const opened = await h.client.call('workspace.open', { path: h.workspace })
    expect(opened.trust).toBe('unknown')
    // Opening put it in the recent list; that does not make it a folder opened before trust.
    expect((await h.client.call('workspace.open', { path: h.workspace })).trust).toBe('unknown')
    await h.client.call('workspace.setTrust', { path: h.workspace, trust: 'untrusted' })
    expect((await h.client.call('workspace.open', { path: h.workspace })).trust).toBe('untrusted')
    await h.client.call('workspace.setTrust', { path: h.workspace, trust: 'trusted' })
    await h.restart()
    expect((await h.client.call('workspace.open', { path: h.workspace })).trust).toBe('trusted')
  })

  it('count the folders opened before this change as trusted', async () => {
    const h = await start('unknown')
    const old = path.join(h.dir, 'old')
    await mkdir(old)
    await writeFile(
      path.join(h.home, 'recent-folders.json'),
      JSON.stringify([{ path: old, openedAt: 1 }])
    )
    expect((await h.client.call('workspace.open', { path: old })).trust).toBe('trusted')
    expect((await h.client.call('workspace.open', { path: h.workspace })).trust).toBe('unknown')
    const session = await h.client.call('session.create', { workspace: old })
    expect(session.folderTrust).toBeUndefined()
  })

  it('make a session in a folder nobody answered for an untrusted one', async () => {
    const h = await start('unknown')
    const session = await h.client.call('session.create', { workspace: h.workspace })
    expect(session.folderTrust).toBe('untrusted')
    expect(await new WorkspaceTrust(h.home).get(h.workspace)).toBe('unknown')
  })

  it('refuse to answer for a folder that does not exist, and say so', async () => {
    const h = await start('unknown')
    await expect(
      h.client.call('workspace.setTrust', { path: path.join(h.dir, 'gone'), trust: 'trusted' })
    ).rejects.toThrow(/does not exist/)
  })

  it('answer trusted for every folder under --trust-project, storing nothing', async () => {
    const h = await startCoreHarness({
      name: 'trust-record',
      format: 'openai-compatible',
      trust: 'untrusted',
      core: { trustProject: true }
    })
    expect((await h.client.call('workspace.open', { path: h.workspace })).trust).toBe('trusted')
    const session = await h.client.call('session.create', { workspace: h.workspace })
    expect(session.folderTrust).toBeUndefined()
    expect(await new WorkspaceTrust(h.home).get(h.workspace)).toBe('untrusted')
  })
})
