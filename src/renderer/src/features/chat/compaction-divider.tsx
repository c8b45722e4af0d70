import { memo, type JSX } from 'react'
import type { TranscriptItem } from '../../../../shared/domain'
import './compaction-divider.css'

type CompactionItem = Extract<TranscriptItem, { kind: 'compaction' }>

/**
 * Where the conversation was compacted: the messages above were replaced, for the model, by the
 * summary this opens to show (with the plan and skills that were carried along verbatim).
 */
export const CompactionDivider = memo(function CompactionDivider({
  item
}: {
  item: CompactionItem
}): JSX.Element {
  const count = `${item.summarised} message${item.summarised === 1 ? '' : 's'}`
  return (
    <details className="compaction" data-testid="compaction">
      <summary className="compaction__line">
        <span className="compaction__label">Earlier messages were summarised</span>
        <span className="compaction__count">({count}; show the summary)</span>
      </summary>
      <div className="compaction__body" data-testid="compaction-summary">
        <p className="compaction__text">{item.summary}</p>
        {item.carried && <pre className="compaction__carried">{item.carried}</pre>}
      </div>
    </details>
  )
})
