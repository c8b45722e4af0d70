// A project folder and a shadow store of it in a temp directory, for the checkpoint tests.
// Not shipped: only test files import it.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, lstatSync, readlinkSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { onTestFinished } from 'vitest'
import { ShadowStore, type ShadowStoreOptions } from '../src/main/checkpoints/shadow-store'

export interface CheckpointFolder {
  /** The temp directory holding everything; removed when the test finishes. */
  dir: string
  /** `<dir>/project`, with `README.md` and `src/a.txt` in it. */
  workspace: string
  /** `<dir>/data/checkpoints`, where the stores go. */
  root: string
  store: ShadowStore
  /** Another store over the same folder and data, as a new process (or a new limit) makes. */
  reopen(options?: Partial<ShadowStoreOptions>): ShadowStore
  /** Writes a file of the folder, making its folders. */
  write(file: string, content: string | Buffer): Promise<void>
  /** A file of the folder as text, or null when it is not there. */
  read(file: string): Promise<string | null>
}

/** A fresh folder and its store; must be called inside a test. */
export async function checkpointFolder(
  options: Partial<ShadowStoreOptions> = {}
): Promise<CheckpointFolder> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-checkpoints-')))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const workspace = path.join(dir, 'project')
  const root = path.join(dir, 'data', 'checkpoints')
  const write = async (file: string, content: string | Buffer): Promise<void> => {
    await mkdir(path.dirname(path.join(workspace, file)), { recursive: true })
    await writeFile(path.join(workspace, file), content)
  }
  await write('README.md', '# Project\n')
  await write('src/a.txt', 'alpha\n')
  const reopen = (more: Partial<ShadowStoreOptions> = {}): ShadowStore =>
    new ShadowStore({ root, workspace, ...options, ...more })
  return {
    dir,
    workspace,
    root,
    store: reopen(),
    reopen,
    write,
    read: (file) => readFile(path.join(workspace, file), 'utf8').catch(() => null)
  }
}

/** The paths a checkpoint holds, sorted (read with git directly, not through the store). */
export function storedFiles(store: ShadowStore, id: string): string[] {
  const out = execFileSync('git', ['ls-tree', '-r', '-z', '--name-only', id], {
    env: { PATH: process.env.PATH, GIT_DIR: store.gitDir },
    encoding: 'utf8'
  })
  return out.split('\0').filter(Boolean).sort()
}

/**
 * Every file under a folder with its mode and a hash of its bytes (a symlink: of its target):
 * what "byte-identical" is checked by.
 */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = path.join(dir, name)
    const info = lstatSync(full)
    const bytes = info.isSymbolicLink()
      ? `link:${readlinkSync(full)}`
      : info.isFile()
        ? readFileSync(full)
        : null
    if (bytes !== null) {
      out[name] = `${info.mode.toString(8)} ${createHash('sha256').update(bytes).digest('hex')}`
    }
  }
  return out
}
