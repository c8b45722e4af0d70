import { useEffect, useMemo, useRef, useState, type JSX } from 'react'
import { createPortal } from 'react-dom'
import type { CallOutput } from '../../../../shared/contract'
import type { SpillInfo } from '../../../../shared/domain'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { formatBytes, formatCount, ltrPath } from '../../lib/format'
import { CloseIcon, ScissorsIcon } from '../../lib/icons'
import { Dialog } from '../../ui/dialog'
import { useChat } from './chat-store'
import './spill-viewer.css'

type Loaded = CallOutput<'spill.read'>

/**
 * Where an output was cut to the turn's budget: what the model saw, where the rest went, and a
 * button that opens the saved file.
 */
export function SpillNotice({ spill, tool }: { spill: SpillInfo; tool: string }): JSX.Element {
  const [open, setOpen] = useState(false)
  const shown = `${formatBytes(spill.shownBytes)} of ${formatBytes(spill.totalBytes)}`
  return (
    <div
      className={`notice notice--warn notice--row spill-notice${spill.kind === 'lost' ? ' spill-notice--lost' : ''}`}
      data-testid="spill-notice"
    >
      <ScissorsIcon size={14} className="spill-notice__icon" />
      <div className="spill-notice__body">
        {spill.kind === 'saved' ? (
          <>
            <p>
              <strong>Output cut to fit this turn&apos;s budget.</strong> The model saw {shown}; the
              rest begins at line {formatCount(spill.continueAtLine)} of the saved output.
            </p>
            <p className="spill-notice__path mono" title={spill.path}>
              {ltrPath(spill.path)}
            </p>
          </>
        ) : (
          <p>
            <strong>Output cut to fit this turn&apos;s budget, and the rest was lost.</strong> The
            model saw {shown}; saving the whole output failed ({spill.reason}), so it was told to
            re-run the tool.
          </p>
        )}
      </div>
      {spill.kind === 'saved' && (
        <button
          type="button"
          className="button button--small"
          onClick={() => setOpen(true)}
          data-testid="spill-open"
        >
          Open full output
        </button>
      )}
      {open && spill.kind === 'saved' && (
        <SpillViewer
          path={spill.path}
          cutAt={spill.continueAtLine}
          tool={tool}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  )
}

/** Lines of a text, each with its number: one gutter beside one block, cheap for many lines. */
function NumberedText({
  lines,
  first,
  digits
}: {
  lines: string[]
  first: number
  /** Digits of the largest number in the file, so gutters above and below the cut line up. */
  digits: number
}): JSX.Element {
  const numbers = lines.map((_, i) => first + i).join('\n')
  return (
    <div className="spill-viewer__code">
      <pre
        className="spill-viewer__gutter"
        aria-hidden="true"
        style={{ width: `calc(${digits}ch + 2 * var(--s3))` }}
      >
        {numbers}
      </pre>
      <pre className="spill-viewer__text" data-testid="spill-text">
        {lines.join('\n')}
      </pre>
    </div>
  )
}

/**
 * The saved output in a scrollable, line-numbered modal, with a rule where the model's copy
 * was cut; Escape or the backdrop closes it.
 */
function SpillViewer({
  path,
  cutAt,
  tool,
  onClose
}: {
  path: string
  /** The first line the model did not see. */
  cutAt: number
  tool: string
  onClose: () => void
}): JSX.Element {
  const sessionId = useChat((s) => s.state.sessionId)
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [error, setError] = useState<string | null>(null)
  const box = useRef<HTMLDivElement>(null)
  const cut = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!sessionId) return
    let live = true
    call('spill.read', { sessionId, path }).then(
      (result) => live && setLoaded(result),
      (failure: unknown) => live && setError(errorMessage(failure))
    )
    return () => {
      live = false
    }
  }, [sessionId, path])

  const lines = useMemo(() => {
    if (!loaded) return []
    const all = loaded.text.split('\n')
    if (loaded.text.endsWith('\n')) all.pop()
    return all
  }, [loaded])
  const seen = lines.slice(0, cutAt - 1)
  const rest = lines.slice(cutAt - 1)
  const digits = String(Math.max(lines.length, 1)).length

  // On the body, so it takes the page's type and colours, not those of the card it opened from.
  return createPortal(
    <Dialog
      className="modal-dialog spill-viewer-dialog"
      label={`Full output of ${tool}`}
      data-testid="spill-viewer"
      onClose={onClose}
      closeOnBackdrop
      initialFocus={box}
    >
      <div className="modal spill-viewer" tabIndex={-1} ref={box}>
        <header className="spill-viewer__header">
          <div className="spill-viewer__titles">
            <h2 className="spill-viewer__title">Full output of {tool}</h2>
            <p className="spill-viewer__meta mono" title={path}>
              {ltrPath(path)}
            </p>
          </div>
          {loaded && rest.length > 0 && (
            <button
              type="button"
              className="button button--small"
              onClick={() => cut.current?.scrollIntoView({ block: 'start' })}
              data-testid="spill-jump"
            >
              Jump to line {formatCount(cutAt)}
            </button>
          )}
          {loaded && <span className="spill-viewer__size">{formatBytes(loaded.totalBytes)}</span>}
          <button
            type="button"
            className="spill-viewer__close"
            onClick={onClose}
            aria-label="Close"
            data-testid="spill-close"
          >
            <CloseIcon size={14} />
          </button>
        </header>
        {loaded && loaded.shownBytes < loaded.totalBytes && (
          <p className="spill-viewer__partial">
            Showing the first {formatBytes(loaded.shownBytes)}; the whole file is at the path above.
          </p>
        )}
        {/* Focusable: the output scrolls, and a keyboard must be able to scroll it. */}
        <div className="spill-viewer__body" tabIndex={0} role="region" aria-label="Whole output">
          {error && (
            <p className="spill-viewer__error" role="alert">
              {error}
            </p>
          )}
          {!loaded && !error && (
            <p className="spill-viewer__loading">
              <span className="spinner-dot" /> Loading…
            </p>
          )}
          {loaded && seen.length > 0 && <NumberedText lines={seen} first={1} digits={digits} />}
          {loaded && rest.length > 0 && (
            <>
              <div className="spill-viewer__cut" ref={cut} data-testid="spill-cut">
                <ScissorsIcon size={12} /> The model saw the lines above; the rest begins here, at
                line {formatCount(cutAt)}.
              </div>
              <NumberedText lines={rest} first={cutAt} digits={digits} />
            </>
          )}
        </div>
      </div>
    </Dialog>,
    document.body
  )
}
