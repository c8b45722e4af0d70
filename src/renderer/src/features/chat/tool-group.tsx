import { useMemo, useState, type JSX } from 'react'
import { ChevronIcon } from '../../lib/icons'
import { useOpenFindQuery } from '../find'
import { ToolCard } from './tool-card'
import { membersWithHit, type GroupRow } from './transcript-rows'
import './tool-group.css'

const NO_HITS: ReadonlySet<string> = new Set()

/**
 * Consecutive read-only calls as one quiet line ("Read 3 files, searched 2 patterns") that opens
 * to their cards. While the find bar has a hit inside, the group and the cards holding it stay
 * open, so the hit can be seen and scrolled to.
 */
export function ToolGroup({
  row,
  sessionId
}: {
  row: GroupRow
  sessionId: string | null
}): JSX.Element {
  const [chosen, setOpen] = useState(false)
  const query = useOpenFindQuery()
  const hits = useMemo(() => (query !== null ? membersWithHit(row, query) : NO_HITS), [query, row])
  const open = chosen || hits.size > 0
  const bodyId = `tool-group-${row.key}`
  return (
    <div
      className="tool-group"
      data-testid="tool-group"
      data-open={open}
      data-count={row.members.length}
    >
      <button
        type="button"
        className="tool-group__header"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
        data-testid="tool-group-toggle"
      >
        <ChevronIcon
          className={`tool-card__chevron${open ? ' tool-card__chevron--open' : ''}`}
          size={14}
        />
        <span className="tool-group__summary">{row.summary}</span>
        {row.running && <span className="spinner-dot spinner-dot--small" aria-hidden="true" />}
      </button>
      {open && (
        <div className="tool-group__cards" id={bodyId}>
          {row.members.map((member) =>
            member.entry.item.kind === 'tool' ? (
              <ToolCard
                key={member.key}
                call={member.entry.item.call}
                sessionId={sessionId}
                chips={member.chips}
                reveal={hits.has(member.key)}
              />
            ) : null
          )}
        </div>
      )}
    </div>
  )
}
