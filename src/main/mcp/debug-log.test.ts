import { describe, expect, it } from 'vitest'
import { debugEcho } from './debug-log'
import { LogRing } from './log-ring'

function echoed(env: NodeJS.ProcessEnv, chunks: string[]): string {
  let out = ''
  const echo = debugEcho(env, (text) => (out += text))
  const ring = new LogRing(10, () => undefined, echo ? { server: 'notes', to: echo } : undefined)
  for (const chunk of chunks) ring.stderr(chunk)
  ring.event('the server process exited')
  return out
}

describe('MECATL_LOG=debug', () => {
  it('echoes whole lines, tagged with the server, and what Mecatl saw', () => {
    expect(echoed({ MECATL_LOG: 'debug' }, ['first li', 'ne\nsecond\n'])).toBe(
      '[mcp notes] first line\n[mcp notes] second\n[mcp notes] (mecatl) the server process exited\n'
    )
  })

  it('shows control characters and bidirectional overrides instead of passing them on', () => {
    const out = echoed({ MECATL_LOG: 'debug' }, [
      '\u001b]0;owned\u0007 \u009b2J \u202eevil\u2066 tab\there \rback\n'
    ])
    expect(out).toContain(
      '[mcp notes] \\x1b]0;owned\\x07 \\x9b2J \\u{202e}evil\\u{2066} tab\there \\x0dback\n'
    )
    for (const raw of ['\u001b', '\u0007', '\u009b', '\u202e', '\u2066', '\r']) {
      expect(out).not.toContain(raw)
    }
  })

  it('is off unless asked for', () => {
    expect(debugEcho({}, () => undefined)).toBeUndefined()
    expect(debugEcho({ MECATL_LOG: 'info' }, () => undefined)).toBeUndefined()
    expect(echoed({ MECATL_LOG: 'DEBUG' }, ['x\n'])).toContain('[mcp notes] x\n')
  })
})
