// A turn names, at its end, what it did to git's own files (config, hooks, attributes), and the
// record keeps it. The Shell runs unconfined here, as with `sandbox.kind: none`, where nothing
// else stops a command from planting a hook.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'

async function start(): Promise<CoreHarness> {
  const h = await startCoreHarness({
    name: 'turn-git',
    settings: { sandbox: { kind: 'none' } },
    files: { 'hook.sh': '#!/bin/sh\necho planted\n', 'a.txt': 'alpha\n' }
  })
  await mkdir(path.join(h.workspace, '.git', 'hooks'), { recursive: true })
  await writeFile(path.join(h.workspace, '.git', 'config'), '[core]\n\tbare = false\n')
  return h
}

async function turn(h: CoreHarness, sessionId: string, text: string): Promise<TranscriptItem> {
  await h.client.call('session.send', { sessionId, text })
  await h.core.sessions.idle(sessionId)
  const { transcript } = await h.client.call('session.get', { sessionId })
  const end = transcript.at(-1)
  if (end?.kind !== 'turn-end') throw new Error(`the turn did not end: ${JSON.stringify(end)}`)
  return end
}

describe('a turn that changes git’s own files', () => {
  it('names them at its end, a quiet turn names nothing, and both survive a restart', async () => {
    const h = await start()
    // `cp` is no git command and writes no redirection: allow mode runs it unasked.
    const plant = 'cp hook.sh .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit'
    h.fake.setScript([
      { toolCalls: [{ name: 'Shell', input: { command: plant } }] },
      { text: 'Done.' },
      { toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] },
      { text: 'It says alpha.' }
    ])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })

    const planted = await turn(h, id, 'Add a pre-commit hook')
    expect(planted).toMatchObject({
      error: null,
      gitChanges: [{ path: '.git/hooks/pre-commit', change: 'created' }]
    })
    const quiet = await turn(h, id, 'What is in a.txt?')
    expect(quiet).toMatchObject({ error: null })
    expect(quiet).not.toHaveProperty('gitChanges')

    const before = (await h.client.call('session.get', { sessionId: id })).transcript
    await h.restart()
    const after = (await h.client.call('session.get', { sessionId: id })).transcript
    expect(after).toEqual(before)
    const ends = after.filter((item) => item.kind === 'turn-end')
    expect(ends.map((end) => end.kind === 'turn-end' && end.gitChanges)).toEqual([
      [{ path: '.git/hooks/pre-commit', change: 'created' }],
      undefined
    ])
  })
})
