import { FitAddon } from '@xterm/addon-fit'
import { Terminal, type ITheme } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'
import { useEffect, useRef, useState, type JSX } from 'react'
import { followJob } from './job-feed'
import { writePieces } from './write-pieces'

// The sidebar's dark, with the app's own accents for the ANSI colours.
const theme: ITheme = {
  background: '#18181c',
  foreground: '#e3e3e8',
  cursor: '#18181c',
  selectionBackground: '#4b43c4aa',
  black: '#26262c',
  red: '#f0716b',
  green: '#5fce8a',
  yellow: '#e6c15a',
  blue: '#6b9cf5',
  magenta: '#b48cf2',
  cyan: '#56c6d6',
  white: '#d4d4dc',
  brightBlack: '#6b6b78',
  brightRed: '#ff8f89',
  brightGreen: '#7fe0a4',
  brightYellow: '#f2d47e',
  brightBlue: '#8fb5ff',
  brightMagenta: '#c9a8ff',
  brightCyan: '#7fdbe7',
  brightWhite: '#ffffff'
}

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

  useEffect(() => {
    const element = host.current
    if (!element) return
    const term = new Terminal({
      theme,
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
      term.dispose()
    }
  }, [jobId, compact])

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
