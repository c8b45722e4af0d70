import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { FileChange } from '../../shared/checkpoints'
import { parseEntry, parseNameStatus, parseRaw, splitOnce, type RawChange } from './shadow-format'
import type { GitRun } from './shadow-git'
import type { Checkpoint } from './shadow-types'

/** The ref that names the newest checkpoint of a store. */
export const LATEST = 'refs/mecatl/latest'
/** Where each checkpoint's own ref lives (one per checkpoint, so retention rewrites nothing). */
export const CHECKPOINTS = 'refs/checkpoints/'

/** Runs one git command in a store (see ShadowStore's `git`). */
export type StoreGit = (args: string[], options?: GitRun) => Promise<string>

/**
 * The store's questions to git that change nothing: each one git run, answered as the
 * checkpoint records and file changes the store deals in.
 */
export class ShadowQueries {
  constructor(private readonly git: StoreGit) {}

  /** The newest checkpoint with its tree, in one git run, or null before the first. */
  async latest(): Promise<{ checkpoint: Checkpoint; tree: string } | null> {
    const out = await this.git(['log', '-1', '--format=%H%x00%T%x00%B', LATEST]).catch(() => null)
    if (!out) return null
    const [id = '', rest = ''] = splitOnce(out)
    const [tree = '', body = ''] = splitOnce(rest)
    return { checkpoint: parseEntry(`${id.trim()}\0${body}`), tree: tree.trim() }
  }

  /**
   * The newest checkpoint and its tree, where `known` is the one this store committed last:
   * while the ref still names it (the usual case: one process takes a session's checkpoints),
   * that without running git; the ref is then read as git keeps it, a file with the id. Another
   * process's newer checkpoint, or refs packed by a clean-up, are asked of git.
   */
  async latestKnown(
    gitDir: string,
    known: { checkpoint: Checkpoint; tree: string } | null
  ): Promise<{ checkpoint: Checkpoint; tree: string } | null> {
    if (known) {
      const named = await readFile(path.join(gitDir, LATEST), 'utf8').catch(() => '')
      if (named.trim() === known.checkpoint.id) return known
    }
    return this.latest()
  }

  /** Every checkpoint, newest first. */
  async list(): Promise<Checkpoint[]> {
    const out = await this.git([
      'for-each-ref',
      '--sort=-refname',
      '--format=%(objectname)%00%(contents)%1e',
      CHECKPOINTS
    ])
    return out
      .split('\x1e')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => parseEntry(entry))
  }

  /** Each checkpoint's ref with the commit it names. */
  async refs(): Promise<{ ref: string; id: string }[]> {
    const out = await this.git(['for-each-ref', '--format=%(refname) %(objectname)', CHECKPOINTS])
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [ref = '', id = ''] = line.split(' ')
        return { ref, id }
      })
  }

  /** The files that differ between two commits or trees. */
  async changes(from: string, to: string): Promise<FileChange[]> {
    const out = await this.git(['diff', '--name-status', '-z', '--no-renames', from, to])
    return parseNameStatus(out)
  }

  /**
   * The files that differ between checkpoint `from` and `to` (default: the store's index), each
   * with its mode and blob at `from`: what a restore to `from` writes back. Of the index it only
   * reads (no lock), so it runs beside the write-tree that makes a checkpoint of that index.
   */
  async restoreChanges(from: string, to?: string): Promise<RawChange[]> {
    const args = ['diff', '--raw', '-z', '--no-renames', '--no-abbrev']
    const out = await this.git(to ? [...args, from, to] : [...args, '--cached', from])
    return parseRaw(out)
  }

  /** The commit a ref names, or null when it names none. */
  async ref(name: string): Promise<string | null> {
    return this.git(['rev-parse', '-q', '--verify', `${name}^{commit}`]).then(
      (out) => out.trim() || null,
      () => null
    )
  }

  /** A checkpoint and its tree, in one git run: a take asks for both. */
  async describeWithTree(id: string): Promise<{ checkpoint: Checkpoint; tree: string }> {
    const [tree = '', body = ''] = splitOnce(await this.git(['log', '-1', '--format=%T%x00%B', id]))
    return { checkpoint: parseEntry(`${id}\0${body}`), tree: tree.trim() }
  }

  async describe(id: string): Promise<Checkpoint> {
    return parseEntry(`${id}\0${await this.git(['log', '-1', '--format=%B', id])}`)
  }
}
