import { useMemo, useState, type JSX } from 'react'
import type { ToolDisplay } from '../../../shared/domain'
import { formatCount } from '../lib/format'
import { FileIcon } from '../lib/icons'
import { diffRows, type DiffRow } from './diff-rows'
import { FOLDED_ROWS, ShowAll } from './show-all'

// The look is result-views.css's, which the transcript loads (tool-result.tsx) before any
// dialog that shows a change can open.

function DiffLine({ row }: { row: DiffRow }): JSX.Element {
  if (row.kind === 'gap') {
    return (
      <tr className="diff__gap">
        <td colSpan={4}>
          ⋯ {formatCount(row.count)} unchanged {row.count === 1 ? 'line' : 'lines'}
        </td>
      </tr>
    )
  }
  const sign = row.kind === 'add' ? '+' : row.kind === 'remove' ? '−' : ''
  return (
    <tr className={`diff__row diff__row--${row.kind}`} data-testid={`diff-${row.kind}`}>
      <td className="diff__num">{row.oldLine ?? ''}</td>
      <td className="diff__num">{row.newLine ?? ''}</td>
      <td className="diff__sign">{sign}</td>
      <td className="diff__text">{row.text}</td>
    </tr>
  )
}

/** Edit and Write: the change as a line diff, both sides numbered; a new file is all additions. */
export function DiffView({
  display
}: {
  display: Extract<ToolDisplay, { kind: 'diff' }>
}): JSX.Element {
  const diff = useMemo(() => diffRows(display.before, display.after), [display])
  const [all, setAll] = useState(false)
  const rows = all ? diff.rows : diff.rows.slice(0, FOLDED_ROWS)
  return (
    <div className="result-frame" data-testid="diff-view">
      <div className="result-frame__head">
        <FileIcon size={13} />
        <span className="result-frame__path mono">{display.path}</span>
        {display.before === null && <span className="badge badge--green">New file</span>}
        <span className="diff__stat diff__stat--add">+{formatCount(diff.added)}</span>
        <span className="diff__stat diff__stat--remove">−{formatCount(diff.removed)}</span>
      </div>
      {diff.rows.length === 0 ? (
        <p className="result-frame__empty">
          No lines changed{display.after === '' ? ' (an empty file)' : ''}.
        </p>
      ) : (
        <div className="diff__scroll">
          <table className="diff">
            <tbody>
              {rows.map((row, i) => (
                <DiffLine key={i} row={row} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length < diff.rows.length && (
        <ShowAll
          hidden={diff.rows.length - rows.length}
          noun="lines"
          onClick={() => setAll(true)}
        />
      )}
    </div>
  )
}
