import type { McpLogLine } from '../../shared/mcp'
import type { LogEcho } from './debug-log'

const MAX_LINE_CHARS = 2000

/**
 * The last lines a server printed on stderr, and what Mecatl saw happen to it (start, exit,
 * restart), for the settings screen and the CLI. Old lines fall off the front; partial lines wait
 * for their newline.
 */
export class LogRing {
  private readonly lines: McpLogLine[] = []
  private partial = ''
  /** Lines ever written, so a reader can tell whether there is anything new. */
  count = 0

  constructor(
    private readonly capacity = 500,
    private readonly onLine: () => void = () => undefined,
    /** Each line as it is kept, with the server's name (`MECATL_LOG=debug`). */
    private readonly echo?: { server: string; to: LogEcho }
  ) {}

  /** A chunk of the server's stderr, split into lines. */
  stderr(chunk: string): void {
    const text = this.partial + chunk
    const parts = text.split(/\r?\n/)
    this.partial = parts.pop() ?? ''
    if (this.partial.length > MAX_LINE_CHARS) {
      this.push('stderr', this.partial)
      this.partial = ''
    }
    for (const line of parts) this.push('stderr', line)
  }

  /** What Mecatl observed, e.g. "exited with code 1". */
  event(text: string): void {
    this.flush()
    this.push('event', text)
  }

  /** Ends a partial stderr line (the process is gone, so no newline will come). */
  flush(): void {
    if (this.partial) this.push('stderr', this.partial)
    this.partial = ''
  }

  list(): McpLogLine[] {
    return this.lines.map((line) => ({ ...line }))
  }

  /** The last `n` stderr lines, to explain a failure. */
  tail(n: number): string[] {
    return this.lines
      .filter((line) => line.stream === 'stderr')
      .slice(-n)
      .map((line) => line.text)
  }

  private push(stream: McpLogLine['stream'], text: string): void {
    const cut = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text
    const line = { at: Date.now(), stream, text: cut }
    this.lines.push(line)
    this.echo?.to(this.echo.server, line)
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity)
    this.count++
    this.onLine()
  }
}
