// A whole session over a project that is a git repository of its own: checkpoints taken by its
// turns, a rewind and its undo through the window's calls. The project's `.git` (index, HEAD,
// refs, config, hooks) stays byte-identical, and what the person staged stays staged.
import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { fingerprint } from '../../../testing/checkpoint-folder'

function git(h: CoreHarness, ...args: string[]): string {
  // Never an optional lock (index refresh) of our own: the checks must not write the .git they check.
  return execFileSync(
    'git',
    ['--no-optional-locks', '-c', 'user.name=Person', '-c', 'user.email=p@p', ...args],
    { cwd: h.workspace, encoding: 'utf8' }
  )
}

async function turn(h: CoreHarness, text: string, sessionId?: string): Promise<string> {
  const id = sessionId ?? (await h.client.call('session.create', { workspace: h.workspace })).id
  await h.client.call('session.send', { sessionId: id, text })
  await h.core.sessions.idle(id)
  return id
}

/** Rewinds the files to before the user message `text`, and answers the checkpoint undoing it. */
async function rewind(h: CoreHarness, sessionId: string, text: string): Promise<string> {
  const { transcript } = await h.client.call('session.get', { sessionId })
  const message = transcript.find((item) => item.kind === 'user' && item.text === text)
  if (message?.kind !== 'user') throw new Error(`no user message “${text}”`)
  const plan = await h.client.call('checkpoints.plan', {
    sessionId,
    to: { message: `user:${message.id}` }
  })
  expect(plan.conflicts).toEqual([])
  expect(plan.checkpoint, `a checkpoint before “${text}”`).toBeTruthy()
  const restored = await h.client.call('checkpoints.restore', {
    sessionId,
    checkpoint: plan.checkpoint ?? '',
    replaceChanged: false,
    label: `before “${text}”`
  })
  return restored.undo
}

async function undo(h: CoreHarness, sessionId: string, checkpoint: string): Promise<void> {
  await h.client.call('checkpoints.restore', {
    sessionId,
    checkpoint,
    replaceChanged: false,
    label: 'undo restore'
  })
}

describe('checkpoints in a project that is a git repository', () => {
  it('leave its .git byte-identical through turns, a rewind and its undo, and keep what is staged', async () => {
    const h = await startCoreHarness({
      name: 'session-git',
      files: { 'notes.txt': 'alpha\n', 'keep.txt': 'keep\n', '.gitignore': 'build/\n' }
    })
    git(h, 'init', '-q', '-b', 'main')
    git(h, 'add', '-A')
    git(h, 'commit', '-q', '-m', 'first')
    // A hook that would fail any commit Mecatl made, and config it must never read or write.
    await writeFile(path.join(h.workspace, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 1\n')
    git(h, 'config', 'core.autocrlf', 'true')
    const dotGit = path.join(h.workspace, '.git')
    const before = fingerprint(dotGit)

    h.fake.setScript([
      { toolCalls: [{ name: 'Write', input: { path: 'new.txt', content: 'written\n' } }] },
      { toolCalls: [{ name: 'Shell', input: { command: "sed -i 's/alpha/ALPHA/' notes.txt" } }] },
      { toolCalls: [{ name: 'Write', input: { path: 'build/out.js', content: 'out\n' } }] },
      { toolCalls: [{ name: 'Shell', input: { command: 'git status --short' } }] },
      { text: 'done' }
    ])
    const sessionId = await turn(h, 'change the notes')
    expect(git(h, 'status', '--short', '--untracked-files=all').split('\n').sort()).toEqual([
      '',
      ' M notes.txt',
      '?? new.txt'
    ])
    const back = await rewind(h, sessionId, 'change the notes')
    expect(git(h, 'status', '--short')).toBe('')
    // The ignored build output is not the agent's to take back: it stays.
    expect(execFileSync('cat', ['build/out.js'], { cwd: h.workspace, encoding: 'utf8' })).toBe(
      'out\n'
    )
    await undo(h, sessionId, back)
    expect(git(h, 'status', '--short').split('\n').sort()).toEqual([
      '',
      ' M notes.txt',
      '?? new.txt'
    ])
    expect(fingerprint(dotGit)).toEqual(before)

    // The person stages a change of their own between the agent's turns.
    await writeFile(path.join(h.workspace, 'keep.txt'), 'staged by the person\n')
    git(h, 'add', 'keep.txt')
    const staged = fingerprint(dotGit)
    h.fake.setScript([
      { toolCalls: [{ name: 'Shell', input: { command: "sed -i 's/ALPHA/BETA/' notes.txt" } }] },
      { toolCalls: [{ name: 'Shell', input: { command: 'rm keep.txt' } }] },
      { text: 'done again' }
    ])
    await turn(h, 'more notes', sessionId)
    const again = await rewind(h, sessionId, 'more notes')
    expect(git(h, 'diff', '--cached', '--name-only')).toBe('keep.txt\n')
    expect(git(h, 'show', ':keep.txt')).toBe('staged by the person\n')
    expect(execFileSync('cat', ['keep.txt'], { cwd: h.workspace, encoding: 'utf8' })).toBe(
      'staged by the person\n'
    )
    await undo(h, sessionId, again)
    await rewind(h, sessionId, 'change the notes')
    expect(fingerprint(dotGit)).toEqual(staged)
    expect(git(h, 'diff', '--cached', '--name-only')).toBe('keep.txt\n')
  })
})
