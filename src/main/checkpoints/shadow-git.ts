import path from 'node:path'
import { SmallSpawner } from './small-spawner'

export interface GitRun {
  input?: string | Buffer
  /** Run against the store alone (init, config): no work tree. */
  noWorkTree?: boolean
  /** Answer raw bytes (a file's content) instead of text. */
  binary?: boolean
}

/** A git command that failed, with what it printed: callers tell "nothing" from "broken". */
export class GitFailure extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string
  ) {
    super(`git ${args[0] ?? ''} failed: ${stderr.trim() || `exit ${code ?? '?'}`}`)
    this.name = 'GitFailure'
  }
}

/**
 * Runs `git` on a shadow store: its own GIT_DIR and index, the project folder as work tree, and
 * nothing of the person's or the system's git configuration (no hooks, no signing, no
 * autocrlf), so a checkpoint is the same bytes whatever the person's git does.
 */
export function shadowGit(
  store: { gitDir: string; workspace: string; env?: NodeJS.ProcessEnv },
  args: readonly string[],
  options: GitRun = {}
): Promise<string> {
  return runGit(store, args, options) as Promise<string>
}

/** As shadowGit, for a file's bytes (or a batch of them, with `input` naming which). */
export function shadowGitBytes(
  store: { gitDir: string; workspace: string; env?: NodeJS.ProcessEnv },
  args: readonly string[],
  input?: string
): Promise<Buffer> {
  return runGit(store, args, { binary: true, input }) as Promise<Buffer>
}

function runGit(
  store: { gitDir: string; workspace: string; env?: NodeJS.ProcessEnv },
  args: readonly string[],
  options: GitRun
): Promise<string | Buffer> {
  const env: NodeJS.ProcessEnv = {
    PATH: (store.env ?? process.env).PATH,
    HOME: store.gitDir,
    GIT_DIR: store.gitDir,
    GIT_INDEX_FILE: path.join(store.gitDir, 'mecatl-index'),
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Mecatl',
    GIT_AUTHOR_EMAIL: 'checkpoints@mecatl.invalid',
    GIT_COMMITTER_NAME: 'Mecatl',
    GIT_COMMITTER_EMAIL: 'checkpoints@mecatl.invalid',
    // Never ask anything: there is nobody at this terminal.
    GIT_TERMINAL_PROMPT: '0',
    ...(options.noWorkTree ? {} : { GIT_WORK_TREE: store.workspace })
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
    '-c',
    'core.fsmonitor=false',
    '-c',
    'gc.auto=0',
    // A clean-up packing refs holds each ref's lock for a moment: wait for it (git's default is
    // 0.1 s), as a checkpoint whose ref was held falls back to git for (loose-writes.ts).
    '-c',
    'core.filesRefLockTimeout=1000',
    // A big folder's index is written on every checkpoint: split, only what changed is; version
    // 4 keeps paths short. Both are git's own settings for large work trees.
    '-c',
    'core.splitIndex=true',
    '-c',
    'index.version=4',

    ...args
  ]
  const request = {
    file: 'git',
    args: full,
    cwd: options.noWorkTree ? store.gitDir : store.workspace,
    env,
    input: options.input,
    binary: options.binary === true,
    maxBuffer: 256 << 20
  }
  return spawner.run(request).then(({ code, message, stdout, stderr }) => {
    if (code === null) return stdout
    if (code === 'ENOENT')
      throw new Error('the git program is not installed, so checkpoints are off')
    const printed = Buffer.isBuffer(stderr) ? stderr.toString('utf8') : stderr
    throw new GitFailure(args, typeof code === 'number' ? code : null, printed || message)
  })
}

/** Every store's git runs through one small helper process (see small-spawner.ts). */
const spawner = new SmallSpawner()
