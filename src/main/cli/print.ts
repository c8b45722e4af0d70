// Everything the CLI prints passes through here. What it prints comes from the model, from
// tools, MCP servers, files and project settings: text a terminal would act on rather than show
// if written raw (OSC 52 sets the clipboard, OSC 0 the window title, CSI 2J clears the screen, a
// carriage return hides the start of a line). So every control character is written visibly
// instead, at a terminal and into a pipe alike: a log piped to a file today is `cat` on a
// terminal tomorrow. Line breaks and tabs pass; a CRLF becomes a line break.
//
// The visible forms keep JSON intact: JSON.stringify already escapes C0 controls, and DEL, the
// C1 controls and the bidirectional overrides (which it leaves raw) are written as JSON's own
// `\u009b` escapes, so a script that parses `--json` output reads exactly what was sent.

// C0 controls but tab and line feed, DEL, C1, and the marks and overrides that make a line read
// as something other than it is (U+061C, U+200E/F, U+202A–E, U+2066–9). CRLF is matched whole.
const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** `text` with every control character shown as `\x1b` (C0) or `\u009b` (the others). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => {
    if (c === '\r\n') return '\n'
    const code = c.charCodeAt(0)
    return code < 0x20
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

/** A line on stdout. */
export function printLine(text = ''): void {
  process.stdout.write(`${terminalSafe(text)}\n`)
}

/** A line on stderr. */
export function printError(text: string): void {
  process.stderr.write(`${terminalSafe(text)}\n`)
}

/** `value` as JSON on one line of stdout, or indented over several with `indent`. */
export function printJson(value: unknown, indent?: number): void {
  printLine(JSON.stringify(value, null, indent))
}

/** Text on stdout as it is, made safe, with no line break added. */
export function writeOut(text: string): void {
  process.stdout.write(terminalSafe(text))
}

/**
 * A text that arrives in pieces (a reply streamed delta by delta): a CR that ends one piece is
 * held until the next shows whether it is half of a CRLF.
 */
export function streamWriter(write: (text: string) => void = writeOut): {
  write: (piece: string) => void
  end: () => void
} {
  let held = ''
  return {
    write: (piece) => {
      const text = held + piece
      held = text.endsWith('\r') ? '\r' : ''
      const ready = held ? text.slice(0, -1) : text
      if (ready) write(ready)
    },
    end: () => {
      if (held) write(held)
      held = ''
    }
  }
}
