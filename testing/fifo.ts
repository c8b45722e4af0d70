// A FIFO where a test needs one. Node has no call that makes one and a unit test starts no
// process (no-processes.ts), so `mkfifo` runs once per process, in `fifoSource` (which the unit
// setup calls before it refuses processes), and each FIFO a test asks for is a hard link to that
// one: the same kind of file, at any path on the same file system.
import { execFileSync } from 'node:child_process'
import { linkSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

let source: string | null = null

/** The process's one FIFO, made on first call and removed when the process exits. */
export function fifoSource(): string {
  if (source !== null) return source
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mecatl-fifo-'))
  execFileSync('mkfifo', [path.join(dir, 'fifo')])
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  source = path.join(dir, 'fifo')
  return source
}

/** Puts a FIFO at `target` (whose folder exists). */
export function makeFifo(target: string): void {
  try {
    linkSync(fifoSource(), target)
  } catch (error) {
    // Another file system than the temp folder's: a link cannot cross it, so make one there.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
    execFileSync('mkfifo', [target])
  }
}
