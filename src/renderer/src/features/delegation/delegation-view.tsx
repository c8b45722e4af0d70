import type { JSX } from 'react'
import type { ToolCallView } from '../../../../shared/domain'
import { ChildTranscript } from './child-transcript'
import { ParallelView } from './parallel-view'
import './delegation.css'

/**
 * What a delegation call's card adds below its header: a sub-agent's nested transcript (live
 * while it works), or a parallel run's branches side by side.
 */
export function DelegationView({
  call,
  sessionId
}: {
  call: ToolCallView
  /** The session the conversation shows. */
  sessionId: string | null
}): JSX.Element | null {
  const display = call.output?.display
  if (display?.kind === 'subagent') {
    return (
      <div className="delegation">
        <ChildTranscript
          title={`Sub-agent ${display.agent}`}
          steps={display.steps}
          running={display.status === 'running'}
          note={display.note}
        />
      </div>
    )
  }
  if (display?.kind === 'parallel' && sessionId) {
    return (
      <div className="delegation">
        <ParallelView display={display} sessionId={sessionId} />
      </div>
    )
  }
  return null
}
