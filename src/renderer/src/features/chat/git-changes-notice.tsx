import type { JSX } from 'react'
import type { GitChange } from '../../../../shared/domain'
import { AlertIcon } from '../../lib/icons'
import { gitChangesLine } from './git-changes-line'
import './git-changes-notice.css'

/**
 * Under a turn that changed `.git/config`, a hook or the attributes: git may now run what was put
 * there the next time the person runs it, so the turn says so where it is read.
 */
export function GitChangesNotice({ changes }: { changes: readonly GitChange[] }): JSX.Element {
  return (
    <div
      className="notice notice--warn git-changes-notice"
      role="note"
      data-testid="turn-git-changes"
    >
      <AlertIcon size={14} />
      <span>{gitChangesLine(changes)}</span>
    </div>
  )
}
