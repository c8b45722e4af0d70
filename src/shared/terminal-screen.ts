// A terminal does not show its output as a log: a carriage return or a cursor move sends the
// cursor back and later characters overwrite earlier ones, which is how spinners and progress
// bars redraw one line in place. Read as text, the same bytes are every frame run together
// ("⠋⠙⠹⠸ added 3 packages"). This replays the cursor over a grid of lines, so the text is what
// the screen finally showed. It is bounded by its input: every character is visited once and the
// grid never grows beyond the lines the input writes.

// Sticky, so each is tried exactly where an escape starts, without copying the text.
// eslint-disable-next-line no-control-regex
const OSC = /\x1b\][\s\S]*?(?:\x07|\x1b\\)/y
// eslint-disable-next-line no-control-regex
const CSI = /\x1b\[([0-?]*)([ -/]*)([@-~])/y
// eslint-disable-next-line no-control-regex
const OTHER_ESC = /\x1b(?:[()*+][0-9A-Za-z]|[@-Z\\^_=>78])/y
// Everything a terminal acts on rather than prints, tab included (it is kept as it is).
// eslint-disable-next-line no-control-regex
const SPECIAL = /[\x00-\x1f\x7f]/g
// Text without any of these (tab and newline aside) is shown as it is.
// eslint-disable-next-line no-control-regex
const ACTS = /[\x00-\x08\x0b-\x1f\x7f]/
/**
 * Cursor moves are clamped, as a terminal clamps them to its screen: a malformed "right 10^9
 * columns" must not allocate, and the cursor never moves below the last line written.
 */
const MAX_MOVE = 10_000

/** The first numeric parameter of a CSI sequence ("2" of "2;5"), clamped; `fallback` if none. */
function parameter(params: string, fallback: number): number {
  let value = 0
  let digits = 0
  for (let at = 0; at < params.length && digits <= 6; at++) {
    const code = params.charCodeAt(at)
    if (code === 0x3b) break // ';' ends the first parameter
    if (code < 0x30 || code > 0x39) continue // a private marker such as '?'
    value = value * 10 + (code - 0x30)
    digits += 1
  }
  return digits === 0 ? fallback : Math.min(value, MAX_MOVE)
}

/** The screen as lines, with the cursor; columns are UTF-16 code units. */
class Screen {
  readonly lines: string[] = ['']
  row = 0
  col = 0

  get line(): string {
    return this.lines[this.row] ?? ''
  }

  set line(text: string) {
    this.lines[this.row] = text
  }

  write(chunk: string): void {
    const line = this.line
    if (this.col >= line.length) this.line = line + ' '.repeat(this.col - line.length) + chunk
    else this.line = line.slice(0, this.col) + chunk + line.slice(this.col + chunk.length)
    this.col += chunk.length
  }

  newline(): void {
    this.row += 1
    this.col = 0
    if (this.row >= this.lines.length) this.lines.push('')
  }

  csi(params: string, final: string): void {
    const n = Math.max(parameter(params, 1), 1)
    const mode = parameter(params, 0)
    const last = this.lines.length - 1
    switch (final) {
      case 'A':
      case 'F':
        this.row = Math.max(0, this.row - n)
        if (final === 'F') this.col = 0
        break
      case 'B':
      case 'E':
        this.row = Math.min(last, this.row + n)
        if (final === 'E') this.col = 0
        break
      case 'C':
        this.col = Math.min(this.col + n, Math.max(this.line.length, MAX_MOVE))
        break
      case 'D':
        this.col = Math.max(0, this.col - n)
        break
      case 'G':
        this.col = n - 1
        break
      case 'K':
        if (mode === 0) this.line = this.line.slice(0, this.col)
        else if (mode === 1) {
          const line = this.line
          this.line = ' '.repeat(Math.min(line.length, this.col + 1)) + line.slice(this.col + 1)
        } else this.line = ''
        break
      case 'J':
        if (mode === 0) {
          this.line = this.line.slice(0, this.col)
          this.lines.length = this.row + 1
        } else if (mode >= 2) {
          this.lines.fill('')
        }
        break
      default:
        // Colours, modes (hide the cursor) and the rest change nothing in the text.
        break
    }
  }
}

/**
 * What a terminal would show after printing `text`: colours and other escape sequences removed,
 * CRLF as LF, carriage-return and cursor-move redraws (spinners, progress bars) reduced to their
 * last state, and backspaces applied. Plain text (tabs included) comes back unchanged.
 */
export function terminalScreen(text: string): string {
  if (!ACTS.test(text)) return text
  const screen = new Screen()
  let i = 0
  while (i < text.length) {
    SPECIAL.lastIndex = i
    const found = SPECIAL.exec(text)
    const end = found ? found.index : text.length
    if (end > i) screen.write(text.slice(i, end))
    if (!found) break
    i = end
    const char = found[0]
    if (char === '\x1b') {
      OSC.lastIndex = i
      CSI.lastIndex = i
      OTHER_ESC.lastIndex = i
      const osc = OSC.exec(text)
      const csi = osc ? null : CSI.exec(text)
      const other = osc || csi ? null : OTHER_ESC.exec(text)
      if (csi) screen.csi(csi[1] ?? '', csi[3] ?? '')
      i += (osc ?? csi ?? other)?.[0].length ?? 1
      continue
    }
    i += 1
    if (char === '\n') screen.newline()
    else if (char === '\r') screen.col = 0
    else if (char === '\b') screen.col = Math.max(0, screen.col - 1)
    else if (char === '\t') screen.write('\t')
    // Other control characters (a bell) show nothing.
  }
  return screen.lines.join('\n')
}
