import { execFileSync, spawn } from 'node:child_process'
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkpointFolder } from '../../../testing/checkpoint-folder'
import { commitText, writeCommit, writeRefs } from './loose-writes'

// The store writes its commits and refs itself: git must read them as its own, byte for byte.
let gitDir: string
const git = (args: string[], env: NodeJS.ProcessEnv = {}, input?: string): string =>
  execFileSync('git', args, {
    env: { PATH: process.env.PATH, GIT_DIR: gitDir, GIT_CONFIG_NOSYSTEM: '1', ...env },
    encoding: 'utf8',
    input
  }).trim()

beforeEach(async () => {
  gitDir = path.join(await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-loose-'))), 'git')
  git(['init', '-q', '--bare', gitDir])
})
afterEach(async () => rm(path.dirname(gitDir), { recursive: true, force: true }))

function emptyTree(): string {
  return git(['mktree'], {}, '')
}

describe('commits written without git', () => {
  it('have the id git commit-tree gives the same tree, message and date, and pass fsck --strict', async () => {
    const tree = emptyTree()
    // Quotes, a newline, and text beyond ASCII: the size in the header counts bytes.
    const message = '{"reason":"before \\"rm\\" — ünïcode","sessionId":null,"at":1764800000123}\n'
    const ours = writeCommit(gitDir, commitText(tree, message, 1764800000))
    const date = '@1764800000 +0000'
    const theirs = git(
      ['commit-tree', tree, '-F', '-'],
      {
        GIT_AUTHOR_NAME: 'Mecatl',
        GIT_AUTHOR_EMAIL: 'checkpoints@mecatl.invalid',
        GIT_COMMITTER_NAME: 'Mecatl',
        GIT_COMMITTER_EMAIL: 'checkpoints@mecatl.invalid',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date
      },
      message
    )
    expect(ours).toBe(theirs)
    expect(git(['log', '-1', '--format=%B', ours])).toBe(message.trim())
    git(['update-ref', 'refs/checkpoints/x', ours])
    expect(() => git(['fsck', '--strict', '--no-progress'])).not.toThrow()
  })

  it('writing the same commit twice keeps one object and leaves no temporary file', async () => {
    const text = commitText(emptyTree(), 'same\n', 1)
    const first = writeCommit(gitDir, text)
    expect(writeCommit(gitDir, text)).toBe(first)
    const dir = path.join(gitDir, 'objects', first.slice(0, 2))
    expect(execFileSync('ls', [dir], { encoding: 'utf8' }).trim()).toBe(first.slice(2))
  })
})

describe('refs written without git', () => {
  it('are read by git, and win over an older packed copy', async () => {
    const one = writeCommit(gitDir, commitText(emptyTree(), 'one\n', 1))
    const two = writeCommit(gitDir, commitText(emptyTree(), 'two\n', 2))
    git(['update-ref', 'refs/mecatl/latest', one])
    git(['pack-refs', '--all'])
    expect(
      writeRefs(gitDir, [
        ['refs/checkpoints/000000000000002-x', two],
        ['refs/mecatl/latest', two]
      ])
    ).toBe(true)
    expect(git(['rev-parse', 'refs/mecatl/latest'])).toBe(two)
    expect(git(['for-each-ref', '--format=%(refname)', 'refs/checkpoints/'])).toBe(
      'refs/checkpoints/000000000000002-x'
    )
    // And git can still move and delete them as its own.
    git(['update-ref', '-d', 'refs/checkpoints/000000000000002-x'])
    expect(git(['for-each-ref', 'refs/checkpoints/'])).toBe('')
  })

  it('change nothing while another holds a ref’s lock, as git does', async () => {
    const one = writeCommit(gitDir, commitText(emptyTree(), 'one\n', 1))
    const two = writeCommit(gitDir, commitText(emptyTree(), 'two\n', 2))
    git(['update-ref', 'refs/mecatl/latest', one])
    const lock = path.join(gitDir, 'refs/mecatl/latest.lock')
    await writeFile(lock, '')
    expect(
      writeRefs(gitDir, [
        ['refs/checkpoints/000000000000002-y', two],
        ['refs/mecatl/latest', two]
      ])
    ).toBe(false)
    expect(git(['rev-parse', 'refs/mecatl/latest'])).toBe(one)
    expect(git(['for-each-ref', 'refs/checkpoints/'])).toBe('')
    // The first ref's lock, taken before the second was found held, is let go.
    expect(() =>
      execFileSync('ls', [path.join(gitDir, 'refs/checkpoints/000000000000002-y.lock')], {
        stdio: 'ignore'
      })
    ).toThrow()
    expect(await readFile(lock, 'utf8')).toBe('')
  })
})

describe('written while a clean-up empties folders', () => {
  it('makes the folder again when it went between making it and writing in it', async () => {
    // As gc removes object and ref folders it empties: every empty folder, over and over.
    const sweeper = spawn('sh', [
      '-c',
      `while :; do find "${gitDir}/objects" "${gitDir}/refs" -mindepth 1 -type d -empty -delete 2>/dev/null; done`
    ])
    try {
      const tree = emptyTree()
      for (let i = 0; i < 1000; i++) {
        const id = writeCommit(gitDir, commitText(tree, `round ${i}\n`, i))
        expect(writeRefs(gitDir, [[`refs/checkpoints/${String(i).padStart(15, '0')}-x`, id]])).toBe(
          true
        )
        // Let the sweeper run between rounds.
        if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 5))
      }
    } finally {
      sweeper.kill()
    }
    expect(
      git(['for-each-ref', '--format=%(refname)', 'refs/checkpoints/']).split('\n')
    ).toHaveLength(1000)
    expect(() => git(['fsck', '--strict', '--no-progress'])).not.toThrow()
  })
})

describe('the newest checkpoint after a restore', () => {
  it('is the folder as restored, whole or in part, and a restore beside a held lock still lands', async () => {
    const { store, write } = await checkpointFolder()
    const before = await store.take('before')
    await write('README.md', 'changed\n')
    await write('src/a.txt', 'changed too\n')
    await write('new.txt', 'new\n')
    await store.restore(before.id, ['README.md'])
    const partial = await store.latest()
    expect(partial?.reason).toBe(`restored ${before.id.slice(0, 12)}`)
    // The restored file is as the newest says; the two changed outside any checkpoint still
    // read as changed since it (a later restore asks before replacing them).
    expect(await store.changes(partial?.id ?? '')).toEqual([
      { path: 'new.txt', change: 'created' },
      { path: 'src/a.txt', change: 'changed' }
    ])

    // A clean-up packing refs holds the newest's lock: the store asks git, which waits for it.
    gitDir = store.gitDir
    await writeFile(path.join(store.gitDir, 'refs/mecatl/latest.lock'), '')
    const release = setTimeout(
      () => void rm(path.join(store.gitDir, 'refs/mecatl/latest.lock'), { force: true }),
      50
    )
    const restored = await store
      .restore(before.id)
      .catch((error: unknown) => (clearTimeout(release), error))
    clearTimeout(release)
    expect(restored).not.toBeInstanceOf(Error)
    const whole = await store.latest()
    expect(whole?.reason).toBe(`restored ${before.id.slice(0, 12)}`)
    expect(await store.changes(whole?.id ?? '')).toEqual([])
    expect(await store.changes(before.id, whole?.id)).toEqual([])
  })
})
