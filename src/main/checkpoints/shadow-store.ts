import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, open, rm, stat } from 'node:fs/promises'
import path from 'node:path'

/** Files larger than this are never stored (a restore cannot bring them back; it says so). */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024
/** Binary files larger than this are not stored either. */
export const MAX_BINARY_BYTES = 1024 * 1024

export interface Checkpoint {
  /** The commit in the shadow store: what `restore` takes. */
  id: string
  at: number
  reason: string
  sessionId: string | null
}

export interface TakenCheckpoint extends Checkpoint {
  /** Files left out, by path relative to the folder, with why. */
  notCovered: { path: string; why: string }[]
}

export interface FileChange {
  path: string
  change: 'created' | 'changed' | 'deleted'
}

export interface ShadowStoreOptions {
  /** `<dataDir>/checkpoints`: one store per project folder lives below it. */
  root: string
  workspace: string
  maxFileBytes?: number
  env?: NodeJS.ProcessEnv
}

/**
 * Checkpoints of one project folder's files, in a git repository of Mecatl's own in the data
 * directory: its own GIT_DIR and index, the folder as its work tree. The project's `.git` is never
 * read for writing nor changed (git never stores a `.git`), nothing of the person's git config or
 * hooks applies, and a folder that is not a repository is covered the same way. It follows the
 * folder's `.gitignore` files, nested ones too.
 */
export class ShadowStore {
  readonly gitDir: string
  private readonly maxFileBytes: number
  private ready: Promise<void> | null = null
  /** One git command at a time per store: the index is shared. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: ShadowStoreOptions) {
    const key = createHash('sha256').update(options.workspace).digest('hex').slice(0, 16)
    this.gitDir = path.join(options.root, key, 'git')
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
  }

  /** Records the folder as it is now; a folder unchanged since the last one gives that one. */
  async take(reason: string, sessionId: string | null = null): Promise<TakenCheckpoint> {
    return this.serial(async () => {
      await this.init()
      const notCovered = await this.stage()
      const head = await this.head()
      const changed =
        head === null ||
        (await this.git(['diff', '--cached', '--quiet', head]).then(
          () => false,
          () => true
        ))
      const at = Date.now()
      if (!changed && head) return { ...(await this.describe(head)), notCovered }
      const message = JSON.stringify({ reason, sessionId, at })
      await this.git(['commit', '-q', '--no-verify', '--allow-empty', '-m', message])
      const id = (await this.head()) ?? ''
      return { id, at, reason, sessionId, notCovered }
    })
  }

  /** Every checkpoint, newest first. */
  async list(): Promise<Checkpoint[]> {
    return this.serial(async () => {
      await this.init()
      if ((await this.head()) === null) return []
      const out = await this.git(['log', '--format=%H%x00%B%x1e'])
      return out
        .split('\x1e')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => parseEntry(entry))
    })
  }

  /** What changed in the folder from checkpoint `from` to `to` (default: the folder now). */
  async changes(from: string, to?: string): Promise<FileChange[]> {
    return this.serial(async () => {
      await this.init()
      let target = to
      if (!target) {
        await this.stage()
        target = (await this.git(['write-tree'])).trim()
      }
      const out = await this.git(['diff', '--name-status', '-z', '--no-renames', from, target])
      return parseNameStatus(out)
    })
  }

  /** The unified diff of one checkpoint against another (default: the folder now). */
  async diff(from: string, to?: string): Promise<string> {
    return this.serial(async () => {
      await this.init()
      let target = to
      if (!target) {
        await this.stage()
        target = (await this.git(['write-tree'])).trim()
      }
      return this.git(['diff', '--no-renames', '--no-color', from, target])
    })
  }

  /**
   * Puts the folder's files (or only `files`) back as they were at `id`: changed ones rewritten,
   * created ones removed, deleted ones brought back. The state before is checkpointed first, so
   * the restore can itself be undone by restoring to that one; returns it.
   */
  async restore(id: string, files?: readonly string[]): Promise<TakenCheckpoint> {
    const before = await this.take(`before restoring ${id.slice(0, 12)}`)
    const wanted = files ? new Set(files.map(normalise)) : null
    const changes = (await this.changes(id, before.id)).filter(
      (change) => !wanted || wanted.has(change.path)
    )
    await this.serial(async () => {
      const created = changes.filter((c) => c.change === 'created').map((c) => c.path)
      const back = changes.filter((c) => c.change !== 'created').map((c) => c.path)
      for (const file of created) {
        await rm(path.join(this.options.workspace, file), { force: true })
      }
      if (back.length > 0) {
        await this.git(['checkout', id, '--pathspec-from-file=-', '--pathspec-file-nul'], {
          input: back.join('\0')
        })
      }
    })
    await this.take(`restored ${id.slice(0, 12)}`)
    return before
  }

  private async init(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.gitDir, { recursive: true })
      await this.git(['init', '-q', '--bare', this.gitDir], { noWorkTree: true })
      await this.git(['config', 'core.bare', 'false'], { noWorkTree: true })
    })()
    return this.ready
  }

  /** Brings the index in line with the folder, leaving out what may not be stored. */
  private async stage(): Promise<{ path: string; why: string }[]> {
    await this.git(['add', '-A', '--ignore-errors', '.']).catch(() => '')
    const staged = parseNul(await this.git(['ls-files', '-z', '--cached']))
    const notCovered: { path: string; why: string }[] = []
    const drop: string[] = []
    for (const file of staged) {
      const why = await this.tooBig(file)
      if (why) {
        notCovered.push({ path: file, why })
        drop.push(file)
      }
    }
    if (drop.length > 0) {
      await this.git(['rm', '-q', '--cached', '--pathspec-from-file=-', '--pathspec-file-nul'], {
        input: drop.join('\0')
      })
    }
    return notCovered
  }

  private async tooBig(file: string): Promise<string | null> {
    const full = path.join(this.options.workspace, file)
    const info = await stat(full).catch(() => null)
    if (!info?.isFile()) return null
    if (info.size > this.maxFileBytes) return `over the ${limitText(this.maxFileBytes)} limit`
    if (info.size > MAX_BINARY_BYTES && (await isBinary(full))) return 'a binary file over 1 MiB'
    return null
  }

  private async head(): Promise<string | null> {
    return this.git(['rev-parse', '-q', '--verify', 'HEAD']).then(
      (out) => out.trim() || null,
      () => null
    )
  }

  private async describe(id: string): Promise<Checkpoint> {
    return parseEntry(`${id}\0${await this.git(['log', '-1', '--format=%B', id])}`)
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }

  private git(
    args: string[],
    options: { input?: string; noWorkTree?: boolean } = {}
  ): Promise<string> {
    const env: NodeJS.ProcessEnv = {
      PATH: (this.options.env ?? process.env).PATH,
      HOME: this.gitDir,
      GIT_DIR: this.gitDir,
      GIT_INDEX_FILE: path.join(this.gitDir, 'mecatl-index'),
      // Nothing of the person's or the system's git configuration applies: no hooks, no signing.
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Mecatl',
      GIT_AUTHOR_EMAIL: 'checkpoints@mecatl.invalid',
      GIT_COMMITTER_NAME: 'Mecatl',
      GIT_COMMITTER_EMAIL: 'checkpoints@mecatl.invalid',
      ...(options.noWorkTree ? {} : { GIT_WORK_TREE: this.options.workspace })
    }
    const full = [
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'commit.gpgSign=false',
      '-c',
      'core.autocrlf=false',
      '-c',
      'core.quotePath=false',
      ...args
    ]
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        full,
        {
          cwd: options.noWorkTree ? this.gitDir : this.options.workspace,
          env,
          maxBuffer: 256 << 20
        },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`git ${args[0]} failed: ${stderr.trim() || error.message}`))
          else resolve(stdout)
        }
      )
      if (options.input !== undefined) child.stdin?.end(options.input)
    })
  }
}

function parseEntry(entry: string): Checkpoint {
  const [id = '', body = ''] = entry.split('\0')
  try {
    const parsed = JSON.parse(body.trim()) as { reason?: string; sessionId?: string; at?: number }
    return {
      id: id.trim(),
      reason: parsed.reason ?? '',
      sessionId: parsed.sessionId ?? null,
      at: parsed.at ?? 0
    }
  } catch {
    return { id: id.trim(), reason: body.trim(), sessionId: null, at: 0 }
  }
}

function parseNul(out: string): string[] {
  return out.split('\0').filter(Boolean)
}

function parseNameStatus(out: string): FileChange[] {
  const parts = parseNul(out)
  const changes: FileChange[] = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]
    const file = parts[i + 1] ?? ''
    const change = status === 'A' ? 'created' : status === 'D' ? 'deleted' : 'changed'
    changes.push({ path: file, change })
  }
  return changes
}

function normalise(file: string): string {
  return path.posix.normalize(file.split(path.sep).join('/')).replace(/^\.\//, '')
}

/** A NUL byte in the first 8 KiB, as git itself decides. */
async function isBinary(file: string): Promise<boolean> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(8192)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead).includes(0)
  } finally {
    await handle.close()
  }
}

function limitText(bytes: number): string {
  const mib = bytes / (1024 * 1024)
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes}-byte`
}
