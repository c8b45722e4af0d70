import type { JSX } from 'react'
import { lazyPart } from '../../lib/lazy-part'

interface Props {
  jobId: string
  /** A short view inside a tool-call card rather than the monitor's full one. */
  compact?: boolean
}

const boxClass = (compact: boolean | undefined): string =>
  `terminal-view${compact ? ' terminal-view--compact' : ''}`

/** The terminal's own empty box at its final size, so nothing moves when the output appears. */
function TerminalLoading({ compact }: Props): JSX.Element {
  return <div className={boxClass(compact)} aria-busy="true" data-testid="job-terminal-loading" />
}

function TerminalMissing({ compact }: Props): JSX.Element {
  return (
    <div className={boxClass(compact)}>
      <p className="terminal-view__failure" role="alert">
        The terminal could not be loaded; reload the window to see this job&apos;s output.
      </p>
    </div>
  )
}

/**
 * A job's output in a terminal (terminal-view.tsx), loaded on first use: xterm.js is the largest
 * piece of the window and a project window shows no terminal at first paint. The job's output is
 * read from its start when the terminal mounts, so none is missed while it loads.
 */
export const LazyTerminalView = lazyPart<Props>(
  () => import('./terminal-view').then((module) => module.TerminalView),
  { loading: TerminalLoading, failed: TerminalMissing }
)
