import type { Stats } from 'node:fs'
import path from 'node:path'
import type { PathJail } from '../../workspace/path-jail'
import type { Capabilities } from '../tool'

/** What is at a jailed path, as a JailScope found it. */
export type PathState =
  | { kind: 'missing' }
  /** A parent in the path is a file, so nothing can exist (or be created) below it. */
  | { kind: 'under-file' }
  | { kind: 'file'; stats: Stats }
  | { kind: 'directory' }
  /** A FIFO, socket or device: reading one could block or never end. */
  | { kind: 'special' }

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
