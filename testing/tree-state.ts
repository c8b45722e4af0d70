// What is in a folder, entry by entry, and what changed in it: for race tests that count what an
// act let through a link touched outside the project folder. Not shipped: only tests import it.
import { createHash } from 'node:crypto'
import { lstat, readdir, readFile, readlink } from 'node:fs/promises'
import path from 'node:path'

/** Every entry under a folder: a directory, a link's target, or a file's mode and bytes' hash. */
export async function treeState(dir: string): Promise<Map<string, string>> {
  const state = new Map<string, string>()
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name)
    const info = await lstat(full)
    const mode = (info.mode & 0o7777).toString(8)
    const what = info.isSymbolicLink()
      ? `link ${await readlink(full)}`
      : info.isDirectory()
        ? `dir ${mode}`
        : `file ${mode} ${createHash('sha256')
            .update(await readFile(full))
            .digest('hex')}`
    state.set(path.relative(dir, full), what)
  }
  return state
}

/** The entries removed, created and changed (bytes, mode or kind) from `before` to `after`. */
export function touched(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>
): { removed: string[]; created: string[]; written: string[] } {
  const removed = [...before.keys()].filter((name) => !after.has(name)).sort()
  const created = [...after.keys()].filter((name) => !before.has(name)).sort()
  const written = [...before]
    .filter(([name, what]) => after.has(name) && after.get(name) !== what)
    .map(([name]) => name)
    .sort()
  return { removed, created, written }
}
