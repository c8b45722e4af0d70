import path from 'node:path'
import { JailRefusal } from '../workspace/jailed-dir'
import { TreeObstacle } from '../workspace/jailed-tree'
import type { NotRestored } from './shadow-types'

/** How many of the files a restore left are named in its sentence; the rest are counted. */
const NAMED = 3

/**
 * Why a restore left a file as it is, in words for the person, from what refused the act: the
 * jail (a folder that changed while it was being restored, a project folder that is gone), what
 * stood in the way, or the system.
 */
export function whyNotRestored(error: unknown, root: string): string {
  if (error instanceof TreeObstacle) {
    switch (error.kind) {
      case 'link':
        return `\`${error.at}\` is a link now, where the checkpoint has a folder; a restore never acts through a link (restore \`${error.at}\` as well to put the folder back)`
      case 'file':
        return `\`${error.at}\` is a file now, where the checkpoint has a folder (restore \`${error.at}\` as well to replace it)`
      case 'folder':
        return 'a folder with files in it is there now'
      case 'exists':
        return 'something is there now that was not there when the restore looked'
    }
  }
  if (error instanceof JailRefusal) {
    if (error.kind === 'root-gone') return `the project folder (${root}) no longer exists`
    const shown = path.relative(root, error.path).split(path.sep).join('/') || '.'
    return `\`${shown}\` changed while it was being restored (a link appeared in its path)`
  }
  return `it could not be put back: ${messageOf(error)}`
}

/**
 * The files a restore left as they are, as one sentence for the transcript: `1 file was not put
 * back, and left as it is: \`d/a.txt\` (\`d\` is a link now, …)`.
 */
export function notRestoredSentence(left: readonly NotRestored[]): string {
  const named = left.slice(0, NAMED).map((file) => `\`${file.path}\` (${file.why})`)
  const more = left.length > NAMED ? `; and ${left.length - NAMED} more` : ''
  const count =
    left.length === 1
      ? '1 file was not put back, and left as it is'
      : `${left.length} files were not put back, and left as they are`
  return `${count}: ${named.join('; ')}${more}`
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
