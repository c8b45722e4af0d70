import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ShadowStore } from '../checkpoints/shadow-store'
import { makeTempDir } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'

// `mecatl checkpoints`: the same shadow store the window's sessions write, read by the CLI.

async function setup(): Promise<{ home: string; workspace: string; store: ShadowStore }> {
  const dir = await makeTempDir('checkpoints-cli')
  const home = path.join(dir, 'home')
  const workspace = path.join(dir, 'project')
  await mkdir(workspace, { recursive: true })
  await writeFile(path.join(workspace, 'a.txt'), 'alpha\n')
  const store = new ShadowStore({ root: path.join(home, 'checkpoints'), workspace })
  return { home, workspace, store }
}

describe('mecatl checkpoints', () => {
  it('lists, diffs and restores a folder’s checkpoints, and the restore can be undone', async () => {
    const { home, workspace, store } = await setup()
    const first = await store.take('before the first change', 'session-1')
    await writeFile(path.join(workspace, 'a.txt'), 'ALPHA\n')
    await writeFile(path.join(workspace, 'b.txt'), 'beta\n')
    await store.take('after Write', 'session-1')
    const cli = (args: string[]) => runCliInProcess([...args, '--workspace', workspace], { home })

    const list = await cli(['checkpoints', 'list', '--json', '--session', 'session-1'])
    expect(list.code).toBe(0)
    const listed = JSON.parse(list.stdout) as { id: string; reason: string }[]
    expect(listed.map((c) => c.reason)).toEqual(['after Write', 'before the first change'])

    const diff = await cli(['checkpoints', 'diff', first.id.slice(0, 10), '--json'])
    expect(JSON.parse(diff.stdout)).toEqual({
      id: first.id,
      changes: [
        { path: 'a.txt', change: 'changed' },
        { path: 'b.txt', change: 'created' }
      ]
    })

    const restored = await cli(['checkpoints', 'restore', first.id.slice(0, 10)])
    expect(restored.code).toBe(0)
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('alpha\n')
    const undo = /To undo: checkpoints restore (\w+)/.exec(restored.stdout)?.[1]
    expect(undo).toBeTruthy()
    await cli(['checkpoints', 'restore', undo!])
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('ALPHA\n')
    expect(await readFile(path.join(workspace, 'b.txt'), 'utf8')).toBe('beta\n')
  })

  it('restores only the files named with --files, asks before replacing outside changes, and says so when an id is unknown', async () => {
    const { home, workspace, store } = await setup()
    const first = await store.take('first')
    await writeFile(path.join(workspace, 'a.txt'), 'ALPHA\n')
    await writeFile(path.join(workspace, 'b.txt'), 'beta\n')
    const cli = (args: string[]) => runCliInProcess([...args, '--workspace', workspace], { home })
    // Both changed after the last checkpoint, outside the agent: nothing is replaced unasked.
    const asked = await cli(['checkpoints', 'restore', first.id, '--files', 'b.txt'])
    expect(asked.code).toBe(1)
    expect(asked.stderr).toContain('changed since Mecatl')
    expect(asked.stderr).toContain('  b.txt')
    expect(await readFile(path.join(workspace, 'b.txt'), 'utf8')).toBe('beta\n')
    const some = await cli(['checkpoints', 'restore', first.id, '--files', 'b.txt', '--yes'])
    expect(some.code).toBe(0)
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('ALPHA\n')
    await expect(readFile(path.join(workspace, 'b.txt'), 'utf8')).rejects.toThrow()
    const unknown = await cli(['checkpoints', 'diff', 'feedface'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('there is no checkpoint feedface')
  })

  it('keeps files up to the max_file_mib of the settings in the checkpoint a restore takes first', async () => {
    const { home, workspace } = await setup()
    await mkdir(home, { recursive: true })
    await writeFile(path.join(home, 'settings.yaml'), 'checkpoints:\n  max_file_mib: 8\n')
    const store = new ShadowStore({
      root: path.join(home, 'checkpoints'),
      workspace,
      maxFileBytes: 8 * 1024 * 1024
    })
    // Over the default 5 MiB, under the 8 the person set.
    const big = (c: string): string => `${c.repeat(1023)}\n`.repeat(6 * 1024)
    await writeFile(path.join(workspace, 'big.txt'), big('x'))
    const first = await store.take('first')
    await writeFile(path.join(workspace, 'big.txt'), big('y'))
    const cli = (args: string[]) => runCliInProcess([...args, '--workspace', workspace], { home })
    const restored = await cli(['checkpoints', 'restore', first.id, '--yes'])
    expect(restored.code).toBe(0)
    expect(await readFile(path.join(workspace, 'big.txt'), 'utf8')).toBe(big('x'))
    // The undo checkpoint holds the big file as it was, so the restore is undone whole.
    const undo = /To undo: checkpoints restore (\w+)/.exec(restored.stdout)?.[1]
    expect(undo).toBeTruthy()
    expect((await cli(['checkpoints', 'restore', undo!, '--yes'])).code).toBe(0)
    expect(await readFile(path.join(workspace, 'big.txt'), 'utf8')).toBe(big('y'))
  })
})
