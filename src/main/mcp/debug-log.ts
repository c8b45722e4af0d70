import type { McpLogLine } from '../../shared/mcp'

/** Where a server's log line is echoed as it arrives (`MECATL_LOG=debug`); unset, nowhere. */
export type LogEcho = (server: string, line: McpLogLine) => void

/**
 * The echo for `MECATL_LOG=debug`: every line a server writes on stderr, and what Mecatl saw
 * happen to it, on this process's stderr tagged `[mcp <name>]`. A server's output is third-party
 * text going to a terminal, so control characters are shown as `\xNN` rather than obeyed: an
 * escape sequence could otherwise rewrite what the person sees, or the window title.
 */
export function debugEcho(
  env: NodeJS.ProcessEnv,
  write: (text: string) => void
): LogEcho | undefined {
  if (env.MECATL_LOG?.trim().toLowerCase() !== 'debug') return undefined
  return (server, line) => {
    const text = line.stream === 'event' ? `(mecatl) ${line.text}` : line.text
    write(`[mcp ${server}] ${visible(text)}\n`)
  }
}

// C0 controls but tab, DEL and the C1 controls: what a terminal would act on rather than show;
// and the bidirectional overrides, which make a line read as something other than it is.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

function visible(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0)
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`
  })
}
