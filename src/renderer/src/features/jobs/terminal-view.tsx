import { FitAddon } from '@xterm/addon-fit'
import { Terminal } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'
import { useEffect, useRef, useState, type JSX } from 'react'
import { currentTheme, terminalTheme, useResolvedTheme } from '../appearance'
import { followJob } from './job-feed'
import { writePieces } from './write-pieces'

/** The most one write hands xterm.js at once: about 5 ms of parsing. */
const PIECE_CHARS = 32 * 1024

const fontFamily =
  "ui-monospace, 'SF Mono', SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace"

interface Props {
  jobId: string
  /** A short view inside a tool-call card rather than the monitor's full one. */
  compact?: boolean
}

/**
 * A job's output as a terminal shows it (xterm.js): colours, cursor moves and progress bars as
 * the command drew them, following the output while it arrives. Read-only: nothing typed here
 * reaches the command. Give it `key={jobId}` so another job starts from a clean view.
 */
export function TerminalView({ jobId, compact = false }: Props): JSX.Element {
  const host = useRef<HTMLDivElement>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const terminal = useRef<Terminal | null>(null)
  const theme = useResolvedTheme()

  useEffect(() => {
    const element = host.current
    if (!element) return
    const term = new Terminal({
      theme: terminalTheme(currentTheme()),
      // Colours a command picks are lifted to AA contrast against the background, in either theme.
      minimumContrastRatio: 4.5,
      fontFamily,
      fontSize: 12,
      lineHeight: 1.2,
      scrollback: compact ? 500 : 5000,
      disableStdin: true,
      cursorBlink: false,
      cursorInactiveStyle: 'none',
      convertEol: false
    })
    const fit = new FitAddon()
    term.loadAddon(fit)
    term.open(element)
    terminal.current = term
    // The command does not know it is watched: its cursor would only be a stray block.
    term.write('\x1b[?25l')
    const refit = (): void => {
      if (element.clientWidth > 0 && element.clientHeight > 0) fit.fit()
    }
    refit()
    const observer = new ResizeObserver(refit)
    observer.observe(element)
    const stop = followJob(jobId, {
      write: (data, written) => {
        const pieces = writePieces(data, PIECE_CHARS)
        pieces.forEach((piece, i) =>
          term.write(piece, i === pieces.length - 1 ? written : undefined)
        )
      },
      reset: () => {
        term.reset()
        term.write('\x1b[?25l')
      },
      failed: (message) => setFailure(message)
    })
    return () => {
      stop()
      observer.disconnect()
      terminal.current = null
      term.dispose()
    }
  }, [jobId, compact])

  useEffect(() => {
    if (terminal.current) terminal.current.options.theme = terminalTheme(theme)
  }, [theme])

  return (
    <div className={`terminal-view${compact ? ' terminal-view--compact' : ''}`}>
      <div className="terminal-view__host" ref={host} data-testid="job-terminal" />
      {failure && (
        <p className="terminal-view__failure" role="alert">
          The output could not be shown: {failure}
        </p>
      )}
    </div>
  )
}
