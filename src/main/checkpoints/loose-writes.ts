import { createHash, randomBytes } from 'node:crypto'
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import path from 'node:path'
import { deflateSync } from 'node:zlib'

// A checkpoint's commit and refs written as git writes them, without running git: each git run
// costs about 10 ms here (most of it starting git), and a restore writes two checkpoints on its
// way. The formats are git's documented on-disk ones (gitformat-loose, gitrepository-layout);
// a test checks git reads, fscks and hashes them the same. They are a few small writes, done
// synchronously: through the thread pool each took about a millisecond's round trip, more than
// the write itself, and a restore waits for them before it changes a file.

/** Who the store's commits are by, as its git runs are told too. */
export const CHECKPOINT_IDENT = 'Mecatl <checkpoints@mecatl.invalid>'

/** A commit's object text: `tree` with no parent, dated `seconds` (UTC), then the message. */
export function commitText(tree: string, message: string, seconds: number): string {
  const signed = `${CHECKPOINT_IDENT} ${seconds} +0000`
  return `tree ${tree}\nauthor ${signed}\ncommitter ${signed}\n\n${message}`
}

/**
 * Writes a commit as a loose object of the store (SHA-1, deflated, under objects/xx/) and answers
 * its id. Written to a temporary file first and renamed: a reader never sees half an object.
 */
export function writeCommit(gitDir: string, text: string): string {
  const body = Buffer.from(text, 'utf8')
  const raw = Buffer.concat([Buffer.from(`commit ${body.length}\0`), body])
  const id = createHash('sha1').update(raw).digest('hex')
  const dir = path.join(gitDir, 'objects', id.slice(0, 2))
  const temp = path.join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`)
  try {
    inFolder(dir, () => writeWhole(temp, deflateSync(raw), 0o444))
    renameSync(temp, path.join(dir, id.slice(2)))
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
  return id
}

/**
 * Points each ref at its commit as git's files backend does: `<ref>.lock` taken with O_EXCL
 * (the lock git itself takes, so a clean-up packing refs and this never cross), the id written
 * into it, then renamed over the ref. Answers false, having changed nothing, when another holds
 * a lock: the caller then asks git, which waits out a clean-up.
 */
export function writeRefs(gitDir: string, updates: readonly [string, string][]): boolean {
  const locked: string[] = []
  try {
    for (const [ref, id] of updates) {
      const lock = path.join(gitDir, `${ref}.lock`)
      try {
        inFolder(path.dirname(lock), () => writeWhole(lock, Buffer.from(`${id}\n`), 0o666))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
        throw error
      }
      locked.push(lock)
    }
    for (const [ref] of updates) {
      const lock = path.join(gitDir, `${ref}.lock`)
      renameSync(lock, path.join(gitDir, ref))
      locked.splice(locked.indexOf(lock), 1)
    }
    return true
  } finally {
    for (const lock of locked) rmSync(lock, { force: true })
  }
}

/**
 * Runs `create` (which makes a file in `dir`) with `dir` made first. A clean-up running beside
 * (gc) removes object and ref folders it empties, so one can go between the two: made again and
 * tried again, as git does.
 */
function inFolder(dir: string, create: () => void): void {
  for (let attempt = 0; ; attempt++) {
    mkdirSync(dir, { recursive: true })
    try {
      create()
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw error
    }
  }
}

/** A new file (never one that exists: O_EXCL) with these bytes. */
function writeWhole(file: string, bytes: Buffer, mode: number): void {
  const fd = openSync(file, 'wx', mode)
  try {
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at)
  } finally {
    closeSync(fd)
  }
}
