import { useState, type JSX } from 'react'
import type { ToolDisplay } from '../../../../shared/domain'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { DiffView } from '../../ui/diff-view'
import { ChildTranscript } from './child-transcript'

type ParallelDisplay = Extract<ToolDisplay, { kind: 'parallel' }>
type Branch = ParallelDisplay['branches'][number]

function BranchColumn({
  branch,
  display,
  sessionId
}: {
  branch: Branch
  display: ParallelDisplay
  sessionId: string
}): JSX.Element {
  const [taking, setTaking] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const won = display.merged === branch.index
  const canTake = display.mode === 'select' && display.open && branch.status === 'done' && !taking
  const take = async (): Promise<void> => {
    setTaking(true)
    setError(null)
    try {
      await call('parallel.take', { sessionId, runId: display.runId, branch: branch.index })
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setTaking(false)
    }
  }
  return (
    <div
      className={`branch${won ? ' branch--won' : ''}`}
      data-testid="parallel-branch"
      data-status={branch.status}
    >
      <div className="branch__head">
        <span className="branch__index">Branch {branch.index}</span>
        {won && <span className="badge badge--green">Taken</span>}
        <span className="branch__task" title={branch.task}>
          {branch.task}
        </span>
      </div>
      <ChildTranscript
        title="Sub-agent"
        steps={branch.steps}
        running={branch.status === 'running'}
      />
      {/* A finished branch's answer is the last reply of its transcript; only a failure adds one. */}
      {branch.status === 'failed' && <p className="branch__error">{branch.answer}</p>}
      <div className="branch__changes" data-testid="branch-changes">
        {branch.changes.length === 0 && branch.status !== 'running' && (
          <p className="branch__empty">No file changes.</p>
        )}
        {branch.changes.map((change) => (
          <DiffView
            key={change.path}
            display={{
              kind: 'diff',
              path: change.after === null ? `${change.path} (removed)` : change.path,
              before: change.before,
              after: change.after ?? ''
            }}
          />
        ))}
      </div>
      {display.mode === 'select' && display.open && (
        <button
          type="button"
          className="button button--primary branch__take"
          disabled={!canTake}
          onClick={() => void take()}
          data-testid="take-branch"
        >
          {taking ? 'Taking…' : 'Take this branch'}
        </button>
      )}
      {error && <p className="branch__error">{error}</p>}
    </div>
  )
}

/** A Parallel run's branches side by side, each with its work, its answer and its diff. */
export function ParallelView({
  display,
  sessionId
}: {
  display: ParallelDisplay
  sessionId: string
}): JSX.Element {
  const status =
    display.merged !== null
      ? `Branch ${display.merged}'s changes were applied; the other copies were removed.`
      : display.mode === 'select' && display.open
        ? 'Pick the branch whose changes to apply; only one can be taken.'
        : display.mode === 'select'
          ? 'No branch was applied; every copy was removed.'
          : 'Answers joined; no branch’s changes were applied.'
  return (
    <section className="parallel" data-testid="parallel-view">
      <p className="parallel__status" data-testid="parallel-status">
        {status}
      </p>
      <div className="parallel__branches">
        {display.branches.map((branch) => (
          <BranchColumn
            key={branch.index}
            branch={branch}
            display={display}
            sessionId={sessionId}
          />
        ))}
      </div>
    </section>
  )
}
