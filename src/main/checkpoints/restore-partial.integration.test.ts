// A restore that cannot put every file back: a link stands where the checkpoint has a folder, so
// the file under it is left (never written through the link, nor the link replaced unasked). The
// rest is put back, the restore can be undone, the checkpoint after it holds the folder as it
// really is, and the window's transcript and the command line both say what was left and why.
import { lstatSync } from 'node:fs'
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkpointFolder, fingerprint, storedFiles } from '../../../testing/checkpoint-folder'
import { runCliInProcess } from '../../../testing/cli-in-process'
import { startCoreHarness } from '../../../testing/core-harness'
import type { ShadowStore } from './shadow-store'

/** `dir/a.txt` and `b.txt` at a first checkpoint; then `b.txt` changed and `dir` a link outside. */
async function linkedAway(
  workspace: string,
  store: ShadowStore,
  outside: string
): Promise<{ first: string }> {
  await mkdir(outside, { recursive: true })
  await writeFile(path.join(outside, 'a.txt'), 'outside\n')
  await mkdir(path.join(workspace, 'dir'), { recursive: true })
  await writeFile(path.join(workspace, 'dir', 'a.txt'), 'v1\n')
  await writeFile(path.join(workspace, 'b.txt'), 'v1\n')
  const first = await store.take('first')
  await writeFile(path.join(workspace, 'b.txt'), 'v2\n')
  await rm(path.join(workspace, 'dir'), { recursive: true })
  await symlink(outside, path.join(workspace, 'dir'))
  await store.take('second')
  return { first: first.id }
}

const LEFT =
  /`dir` is a link now, where the checkpoint has a folder; a restore never acts through a link/

describe('a restore that stops short of some files', () => {
  it('puts the rest back, names what it left and why, and can be undone', async () => {
    const f = await checkpointFolder()
    const outside = path.join(f.dir, 'outside')
    const { first } = await linkedAway(f.workspace, f.store, outside)
    const untouched = fingerprint(outside)

    const restored = await f.store.restore(first, ['dir/a.txt', 'b.txt'])
    expect(restored.changes).toEqual([{ path: 'b.txt', change: 'changed' }])
    expect(restored.notRestored).toEqual([{ path: 'dir/a.txt', why: expect.stringMatching(LEFT) }])
    expect(await f.read('b.txt')).toBe('v1\n')
    expect(lstatSync(path.join(f.workspace, 'dir')).isSymbolicLink()).toBe(true)
    expect(fingerprint(outside)).toEqual(untouched)
    // The newest checkpoint is the folder as the restore left it: the link, not the file.
    const latest = await f.store.latest()
    expect(latest?.reason).toBe(`restored ${first.slice(0, 12)}`)
    expect(storedFiles(f.store, latest?.id ?? '')).toEqual([
      'README.md',
      'b.txt',
      'dir',
      'src/a.txt'
    ])
    expect((await f.store.fileAt(latest?.id ?? '', 'b.txt'))?.toString()).toBe('v1\n')

    // The undo taken first brings back what the restore changed.
    await f.store.restore(
      restored.undo.id,
      restored.changes.map((c) => c.path)
    )
    expect(await f.read('b.txt')).toBe('v2\n')
    expect(fingerprint(outside)).toEqual(untouched)
  })

  it('is said by the command line, which exits 1', async () => {
    const f = await checkpointFolder()
    const home = path.join(f.dir, 'home')
    const store = f.reopen({ root: path.join(home, 'checkpoints') })
    const { first } = await linkedAway(f.workspace, store, path.join(f.dir, 'outside'))
    const cli = (args: string[]): ReturnType<typeof runCliInProcess> =>
      runCliInProcess([...args, '--workspace', f.workspace], { home })

    const text = await cli(['checkpoints', 'restore', first, '--files', 'dir/a.txt', 'b.txt'])
    expect(text.code).toBe(1)
    expect(text.stdout).toMatch(/^ {2}not put back: dir\/a\.txt \(`dir` is a link now/m)
    expect(text.stdout).toMatch(/To undo: checkpoints restore \w+/)
    expect(text.stderr).toContain('1 file was not put back')
    expect(await readFile(path.join(f.workspace, 'b.txt'), 'utf8')).toBe('v1\n')

    await writeFile(path.join(f.workspace, 'b.txt'), 'v2\n')
    await store.take('again')
    const json = await cli(['checkpoints', 'restore', first, '--files', 'dir/a.txt', '--json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({
      changes: [],
      notRestored: [{ path: 'dir/a.txt', why: expect.stringMatching(LEFT) }]
    })
  })

  it('is said under the restore in the window’s transcript', async () => {
    const h = await startCoreHarness({ name: 'restore-partial' })
    const store = h.core.checkpoints.store(h.workspace)
    const { first } = await linkedAway(h.workspace, store, path.join(h.dir, 'outside'))
    const { id: sessionId } = await h.client.call('session.create', { workspace: h.workspace })

    const result = await h.client.call('checkpoints.restore', {
      sessionId,
      checkpoint: first,
      files: ['dir/a.txt', 'b.txt'],
      replaceChanged: false,
      label: 'Reverted the changes of a Shell call'
    })
    expect(result.changes).toEqual([{ path: 'b.txt', change: 'changed' }])
    const { transcript } = await h.client.call('session.get', { sessionId })
    const item = transcript.find((i) => i.kind === 'restore')
    expect(item?.kind === 'restore' && item.label).toMatch(
      /^Reverted the changes of a Shell call\. 1 file was not put back, and left as it is: `dir\/a\.txt` \(`dir` is a link now/
    )
    expect(item?.kind === 'restore' && item.changes).toEqual([{ path: 'b.txt', change: 'changed' }])
  })
})
