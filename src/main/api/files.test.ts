// The files calls over the contract, as a window makes them: the Attach file picker's listing
// (only what lies inside the project, whatever path is asked) and the `@` finder.
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startCoreHarness } from '../../../testing/core-harness'

describe('files.list', () => {
  it('lists a folder of the project, folders first, without .git, links only leading inside', async () => {
    const h = await startCoreHarness({ name: 'files-list', files: { 'b.ts': 'b', 'a.md': 'a' } })
    await mkdir(path.join(h.workspace, 'src'))
    await mkdir(path.join(h.workspace, '.git'))
    await writeFile(path.join(h.workspace, 'src', 'c.ts'), 'c')
    await writeFile(path.join(h.dir, 'outside.txt'), 'no')
    await symlink(path.join(h.dir, 'outside.txt'), path.join(h.workspace, 'out-link'))
    await symlink(path.join(h.workspace, 'b.ts'), path.join(h.workspace, 'in-link'))
    const { id } = await h.client.call('session.create', { workspace: h.workspace })

    const root = await h.client.call('files.list', { sessionId: id, path: '' })
    expect(root).toEqual({
      path: '',
      entries: [
        { name: 'src', kind: 'folder' },
        { name: 'a.md', kind: 'file' },
        { name: 'b.ts', kind: 'file' },
        { name: 'in-link', kind: 'file' }
      ],
      more: 0
    })
    const src = await h.client.call('files.list', { sessionId: id, path: 'src/' })
    expect(src).toEqual({ path: 'src', entries: [{ name: 'c.ts', kind: 'file' }], more: 0 })
  })

  it('refuses a folder outside the project however it is named', async () => {
    const h = await startCoreHarness({ name: 'files-list-out' })
    await mkdir(path.join(h.dir, 'other'))
    await symlink(path.join(h.dir, 'other'), path.join(h.workspace, 'other-link'))
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    for (const requested of ['..', '../other', h.dir, 'other-link', 'x\0y']) {
      await expect(h.client.call('files.list', { sessionId: id, path: requested })).rejects.toThrow(
        /outside the project folder|NUL/
      )
    }
    await expect(h.client.call('files.list', { sessionId: id, path: 'missing' })).rejects.toThrow(
      /is not a folder of the project/
    )
  })
})

describe('files.find', () => {
  it('answers from the folder the path names, checked first, with paths relative to it', async () => {
    const h = await startCoreHarness({ name: 'files-find', files: { 'README.md': '# hi' } })
    await mkdir(path.join(h.workspace, 'src', 'main'), { recursive: true })
    await writeFile(path.join(h.workspace, 'src', 'main', 'core.ts'), '')
    await writeFile(path.join(h.dir, 'outside-core.ts'), '')
    await symlink(path.join(h.dir, 'outside-core.ts'), path.join(h.workspace, 'core-link.ts'))
    // A link to the project names the project itself.
    await symlink(h.workspace, path.join(h.dir, 'project-link'))

    const found = await h.client.call('files.find', {
      workspace: path.join(h.dir, 'project-link'),
      query: 'core',
      limit: 10
    })
    expect(found).toEqual({
      items: [{ path: 'src/main/core.ts', kind: 'file', positions: [9, 10, 11, 12] }],
      total: 1,
      complete: true
    })
    const all = await h.client.call('files.find', { workspace: h.workspace, query: '' })
    expect(all.items.map((item) => item.path).sort()).toEqual([
      'README.md',
      'src',
      'src/main',
      'src/main/core.ts'
    ])
  })

  it('refuses what is not a folder, and malformed input, with a sentence', async () => {
    const h = await startCoreHarness({ name: 'files-find-bad', files: { 'a.txt': 'a' } })
    await expect(
      h.client.call('files.find', { workspace: path.join(h.workspace, 'a.txt'), query: 'a' })
    ).rejects.toThrow(/is not a folder/)
    await expect(
      h.client.call('files.find', { workspace: path.join(h.dir, 'nowhere'), query: 'a' })
    ).rejects.toThrow(/does not exist/)
    await expect(
      h.client.call('files.find', { workspace: h.workspace, query: 'x'.repeat(501) })
    ).rejects.toThrow()
    await expect(
      h.client.call('files.find', { workspace: h.workspace, query: 'a', limit: 0 })
    ).rejects.toThrow()
  })
})
