import type { Stats } from 'node:fs'
import { lstat } from 'node:fs/promises'
import path from 'node:path'
import { JailRefusal, type JailedDir } from '../../workspace/jailed-dir'
import type { Resolved } from '../../workspace/path-jail'
import { errorOutput, type ToolOutput } from '../tool'
import { shownPath } from './file-state'
import { refuseUnapprovedGitWrite, type JailScope } from './jail-scope'

/**
 * A directory entry itself, not what it leads to: the jail canonicalises its parent, and the last
 * name is kept as written, so a symbolic link is the link (Remove deletes the link, Move moves it)
 * and a link pointing outside the folder is never followed there.
 */
export type LocatedEntry =
  | { ok: false; output: ToolOutput }
  | {
      ok: true
      /** Absolute: the canonical parent joined with the entry's own name. */
      path: string
      shown: string
      /** What is there, not following a final symlink; null when nothing is. */
      stats: Stats | null
      /** The request names the project folder itself. */
      isRoot: boolean
      /** The directory that holds it, opened by descriptor; null when it does not exist. */
      parent: JailedDir | null
      /** A file is where a directory above it should be. */
      underFile: boolean
      name: string
      /** Where the parent resolved, to create it when it is missing. */
      parentResolved: Resolved
    }

export type Entry = Extract<LocatedEntry, { ok: true }>

/** Finds the entry a Copy, Move or Remove names, through the jail. */
export async function locateEntry(scope: JailScope, requested: string): Promise<LocatedEntry> {
  const { jail } = scope.ctx
  const lexical = path.resolve(jail.root, requested)
  if (lexical === jail.root) {
    // Only to learn that it is still there: a folder that is gone is refused by the walk.
    const located = await scope.locate('.')
    if (!located.ok) return located
    return {
      ok: true,
      path: jail.root,
      shown: '.',
      stats: await lstat(jail.root),
      isRoot: true,
      parent: null,
      underFile: false,
      name: '.',
      parentResolved: { path: jail.root, root: jail.root }
    }
  }
  const parentResolved = await jail.resolve(path.dirname(lexical))
  const entry = parentResolved.ok ? path.join(parentResolved.path, path.basename(lexical)) : null
  if (!parentResolved.ok || entry === null || !jail.contains(entry)) {
    const direct = await jail.resolve(requested)
    return {
      ok: false,
      output: errorOutput(direct.ok ? outsideMessage(requested, jail.root) : direct.message)
    }
  }
  // Copy, Move and Remove all change the entry they name.
  refuseUnapprovedGitWrite(scope.ctx, entry)
  const walk = await jail.openDir(parentResolved)
  const parent = walk.kind === 'open' ? scope.keep(walk.dir) : null
  const name = path.basename(lexical)
  return {
    ok: true,
    path: entry,
    shown: shownPath(jail, requested, entry),
    stats: parent ? await parent.lstat(name) : null,
    isRoot: entry === jail.root,
    parent,
    underFile: walk.kind === 'under-file',
    name,
    parentResolved
  }
}

/** The jail's own wording, for entries whose parent leads outside. */
function outsideMessage(requested: string, root: string): string {
  return `\`${requested}\` is outside the project folder (${root}); only paths inside it can be used`
}

/**
 * Checks that a Copy or Move may create `destination`: nothing may be there (a dangling link
 * counts as something), and its parent must be, or become, a directory. Creates missing parents
 * one at a time through their parents' descriptors, and returns the directory to create it in.
 */
export async function prepareDestination(
  scope: JailScope,
  destination: Entry,
  verb: 'Copy' | 'Move'
): Promise<{ ok: true; dir: JailedDir } | { ok: false; output: ToolOutput }> {
  const { shown, stats } = destination
  if (destination.isRoot || stats !== null) {
    const into = stats?.isDirectory()
      ? `; to put something into the directory \`${shown}\`, give its full new path (\`${shown === '.' ? '' : `${shown}/`}<name>\`)`
      : `; choose a name that does not exist, or Remove \`${shown}\` first`
    return {
      ok: false,
      output: errorOutput(`\`${shown}\` already exists and ${verb} never replaces anything${into}`)
    }
  }
  if (destination.parent) return { ok: true, dir: destination.parent }
  if (!destination.underFile) {
    const made = await scope.ctx.jail.openDir(destination.parentResolved, true)
    if (made.kind === 'open') return { ok: true, dir: scope.keep(made.dir) }
    // Made a moment ago and gone already: someone removed it while we worked.
    if (made.kind === 'missing') throw new JailRefusal('changed', destination.path)
  }
  return {
    ok: false,
    output: errorOutput(
      `cannot create \`${shown}\`: part of its path is a file, not a directory; check the path with ListDir`
    )
  }
}
