import type { Stats } from 'node:fs'
import { lstat, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { errorOutput, type ToolContext, type ToolOutput } from '../tool'
import { errnoCode, pathState, shownPath } from './file-state'

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
    }

/** Finds the entry a Copy, Move or Remove names, through the jail. */
export async function locateEntry(ctx: ToolContext, requested: string): Promise<LocatedEntry> {
  const { jail } = ctx
  const lexical = path.resolve(jail.root, requested)
  if (lexical === jail.root) {
    return { ok: true, path: jail.root, shown: '.', stats: await lstat(jail.root), isRoot: true }
  }
  const parent = await jail.resolve(path.dirname(lexical))
  const entry = parent.ok ? path.join(parent.path, path.basename(lexical)) : null
  if (entry === null || !jail.contains(entry)) {
    const direct = await jail.resolve(requested)
    return {
      ok: false,
      output: errorOutput(direct.ok ? outsideMessage(requested, jail.root) : direct.message)
    }
  }
  return {
    ok: true,
    path: entry,
    shown: shownPath(jail, requested, entry),
    stats: await lstatOrNull(entry),
    isRoot: entry === jail.root
  }
}

/** The jail's own wording, for entries whose parent leads outside. */
function outsideMessage(requested: string, root: string): string {
  return `\`${requested}\` is outside the project folder (${root}); only paths inside it can be used`
}

async function lstatOrNull(absolute: string): Promise<Stats | null> {
  try {
    return await lstat(absolute)
  } catch (error) {
    const code = errnoCode(error)
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}

/**
 * Checks that a Copy or Move may create `destination`: nothing may be there (a dangling link
 * counts as something), and its parent must be, or become, a directory. Creates missing parents.
 */
export async function prepareDestination(
  destination: Extract<LocatedEntry, { ok: true }>,
  verb: 'Copy' | 'Move'
): Promise<ToolOutput | null> {
  const { shown, stats } = destination
  if (destination.isRoot || stats !== null) {
    const into = stats?.isDirectory()
      ? `; to put something into the directory \`${shown}\`, give its full new path (\`${shown === '.' ? '' : `${shown}/`}<name>\`)`
      : `; choose a name that does not exist, or Remove \`${shown}\` first`
    return errorOutput(`\`${shown}\` already exists and ${verb} never replaces anything${into}`)
  }
  const parent = path.dirname(destination.path)
  const state = await pathState(parent)
  if (state.kind === 'file' || state.kind === 'under-file' || state.kind === 'special') {
    return errorOutput(
      `cannot create \`${shown}\`: part of its path is a file, not a directory; check the path with ListDir`
    )
  }
  if (state.kind === 'missing') await mkdir(parent, { recursive: true })
  return null
}
