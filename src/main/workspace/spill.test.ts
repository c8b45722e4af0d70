import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PathJail } from './path-jail'
import { SpillStore, utf8Prefix } from './spill'

let base: string
let root: string
let spillRoot: string
let mine: SpillStore
let theirs: SpillStore

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-spill-')))
  root = path.join(base, 'project')
  spillRoot = path.join(base, 'home', 'spill')
  await mkdir(root)
  mine = new SpillStore(path.join(spillRoot, 'session-a'))
  theirs = new SpillStore(path.join(spillRoot, 'session-b'))
})
afterEach(async () => {
  await rm(base, { recursive: true, force: true })
})

describe('SpillStore.save', () => {
  it('saves the text whole as <callId>.txt in the session directory, creating it', async () => {
    const file = await mine.save('call_1', 'one\ntwo\n')
    expect(file).toBe(path.join(spillRoot, 'session-a', 'call_1.txt'))
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\n')
  })

  it('keeps an earlier output when a call id comes again', async () => {
    const first = await mine.save('call_1', 'first')
    const second = await mine.save('call_1', 'second')
    expect(second).toBe(path.join(spillRoot, 'session-a', 'call_1-2.txt'))
    expect(await readFile(first, 'utf8')).toBe('first')
    expect(await readFile(second, 'utf8')).toBe('second')
  })

  it('makes a call id that is not a plain name safe for a file name', async () => {
    const file = await mine.save('../../etc/passwd', 'x')
    expect(path.dirname(file)).toBe(path.join(spillRoot, 'session-a'))
    expect(path.basename(file)).toBe('______etc_passwd.txt')
  })

  it('throws when the directory cannot be made, for the caller to report', async () => {
    await mkdir(path.join(base, 'home'), { recursive: true })
    await writeFile(spillRoot, 'a file where the directory should be')
    await expect(mine.save('call_1', 'x')).rejects.toThrow(/ENOTDIR|EEXIST/)
  })
})

describe('SpillStore.read', () => {
  it('serves a saved output of its own session', async () => {
    const file = await mine.save('c', 'héllo\n')
    expect(await mine.read(file)).toEqual({
      ok: true,
      path: file,
      text: 'héllo\n',
      totalBytes: 7,
      shownBytes: 7
    })
  })

  it('serves only the start of a large output, never splitting a character', async () => {
    const file = await mine.save('c', 'aé'.repeat(10))
    const read = await mine.read(file, 5)
    expect(read).toMatchObject({ ok: true, text: 'aéa', shownBytes: 4, totalBytes: 30 })
  })

  it('refuses anything that is not a file of its own session', async () => {
    const own = await mine.save('c', 'mine')
    const other = await theirs.save('c', 'theirs')
    await writeFile(path.join(root, 'project.txt'), 'project')
    await symlink(other, path.join(mine.dir, 'link-to-other'))
    const attempts = {
      "another session's output": other,
      'a way out with ..': path.join(mine.dir, '..', 'session-b', 'c.txt'),
      'a link to another session': path.join(mine.dir, 'link-to-other'),
      'a file of the project': path.join(root, 'project.txt'),
      'a relative path': 'c.txt',
      'the directory itself': mine.dir,
      'a missing file elsewhere': path.join(base, 'nowhere.txt')
    }
    for (const [how, requested] of Object.entries(attempts)) {
      const read = await mine.read(requested)
      expect(read, how).toEqual({
        ok: false,
        message: `\`${requested}\` is not a saved output of this session; only files in its spill directory (${mine.dir}) can be opened here`
      })
    }
    expect(await mine.read(own)).toMatchObject({ ok: true, text: 'mine' })
  })

  it('says so when a saved output is gone', async () => {
    const file = await mine.save('c', 'x')
    await rm(file)
    expect(await mine.read(file)).toEqual({
      ok: false,
      message: `the saved output \`${file}\` no longer exists`
    })
  })
})

describe('the jail and the spill directory', () => {
  const outsideMessage = (requested: string): string =>
    `\`${requested}\` is outside the project folder (${root}); only paths inside it can be used`

  it('lets a read follow a path into the session spill directory, and only a read', async () => {
    const jail = new PathJail(root, { spillDir: mine.dir })
    const file = await mine.save('call_1', 'rest')
    expect(await jail.resolve(file, 'read')).toEqual({
      ok: true,
      path: file,
      root: path.dirname(file)
    })
    expect(await jail.resolve(file, 'write')).toEqual({ ok: false, message: outsideMessage(file) })
    expect(await jail.resolve(file)).toEqual({ ok: false, message: outsideMessage(file) })
    expect(jail.display(file)).toBe(file)
  })

  it("refuses another session's spill directory, and ways out of its own", async () => {
    const jail = new PathJail(root, { spillDir: mine.dir })
    await mine.save('c', 'mine')
    const other = await theirs.save('c', 'theirs')
    await symlink(other, path.join(mine.dir, 'link-to-other'))
    await mkdir(`${mine.dir}-evil`)
    await writeFile(path.join(`${mine.dir}-evil`, 'x.txt'), 'x')
    for (const requested of [
      other,
      path.join(mine.dir, '..', 'session-b', 'c.txt'),
      path.join(mine.dir, 'link-to-other'),
      path.join(`${mine.dir}-evil`, 'x.txt'),
      mine.dir,
      spillRoot
    ]) {
      expect(await jail.resolve(requested, 'read')).toEqual({
        ok: false,
        message: outsideMessage(requested)
      })
    }
  })

  it('opens no spill directory for a jail that has none', async () => {
    const file = await mine.save('c', 'x')
    const jail = new PathJail(root)
    expect(await jail.resolve(file, 'read')).toEqual({ ok: false, message: outsideMessage(file) })
  })
})

describe('utf8Prefix', () => {
  it('drops a character cut in half, and keeps whole ones', () => {
    const bytes = Buffer.from('a€') // 1 + 3 bytes
    expect(utf8Prefix(bytes.subarray(0, 4)).toString()).toBe('a€')
    expect(utf8Prefix(bytes.subarray(0, 3)).toString()).toBe('a')
    expect(utf8Prefix(bytes.subarray(0, 2)).toString()).toBe('a')
    expect(utf8Prefix(Buffer.from('😀').subarray(0, 3)).length).toBe(0)
  })
})
