import type { Stats } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import type { PathAccess, PathJail } from '../../workspace/path-jail'
import { errorOutput, type Capabilities, type ToolContext, type ToolOutput } from '../tool'

/** What is at a jailed path right now, following symlinks. */
export type PathState =
  | { kind: 'missing' }
  /** A parent in the path is a file, so nothing can exist (or be created) below it. */
  | { kind: 'under-file' }
  | { kind: 'file'; stats: Stats }
  | { kind: 'directory' }
  /** A FIFO, socket or device: reading one could block or never end. */
  | { kind: 'special' }

/** Looks at a path without reading it; unexpected failures (EACCES, EIO) are thrown. */
export async function pathState(absolute: string): Promise<PathState> {
  let stats: Stats
  try {
    stats = await stat(absolute)
  } catch (error) {
    const code = errnoCode(error)
    if (code === 'ENOENT') return { kind: 'missing' }
    if (code === 'ENOTDIR') return { kind: 'under-file' }
    throw error
  }
  if (stats.isFile()) return { kind: 'file', stats }
  if (stats.isDirectory()) return { kind: 'directory' }
  return { kind: 'special' }
}

/**
 * The path as the model should see it in messages: the name it asked for, made relative to the
 * project folder, so a link keeps its own name rather than its target's. Falls back to where the
 * path resolved when the request does not read as a path inside the folder.
 */
export function shownPath(jail: PathJail, requested: string, resolved: string): string {
  const relative = path.relative(jail.root, path.resolve(jail.root, requested))
  if (relative === '') return '.'
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return jail.display(resolved)
  }
  return relative.split(path.sep).join('/')
}

/** Why an existing file may not be replaced yet, in words that say what to do next. */
export function stalenessMessage(
  reason: 'not-read' | 'changed',
  shown: string,
  verb: 'Write' | 'Edit'
): string {
  return reason === 'not-read'
    ? `\`${shown}\` already exists and this session has not read it; Read it first, then ${verb}`
    : `\`${shown}\` has changed since this session read it; Read it again and re-apply your change`
}

/** The `code` of a Node system error, if it has one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  return typeof error.code === 'string' ? error.code : undefined
}

/** Reading the person's files: private data, nothing sent anywhere. */
export const readsFiles: Capabilities = {
  privateData: true,
  untrustedInput: false,
  egress: 'none',
  destructive: false
}

/** Changing the person's files: private, and it can destroy what was there. */
export const changesFiles: Capabilities = { ...readsFiles, destructive: true }

export type Located =
  { ok: false; output: ToolOutput } | { ok: true; path: string; shown: string; state: PathState }

/**
 * Every fs tool's first step: through the jail, then a look at what is there. Tools that only
 * read pass `read`, which may also follow a path into the session's spill directory.
 */
export async function locate(
  ctx: ToolContext,
  requested: string,
  access: PathAccess = 'write'
): Promise<Located> {
  const jailed = await ctx.jail.resolve(requested, access)
  if (!jailed.ok) return { ok: false, output: errorOutput(jailed.message) }
  return {
    ok: true,
    path: jailed.path,
    shown: shownPath(ctx.jail, requested, jailed.path),
    state: await pathState(jailed.path)
  }
}
