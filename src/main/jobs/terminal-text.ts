import { terminalScreen } from '../../shared/terminal-screen'

// Escape sequences a terminal acts on but a model should not read: OSC (titles, hyperlinks)
// ended by BEL or ST, CSI (colours, cursor moves), and the two-byte ESC forms.
// eslint-disable-next-line no-control-regex
const OSC = /\x1b\][\s\S]*?(?:\x07|\x1b\\)/g
// eslint-disable-next-line no-control-regex
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g
// eslint-disable-next-line no-control-regex
const OTHER_ESC = /\x1b(?:[()*+][0-9A-Za-z]|[@-Z\\^_=>78])/g

/** Removes colours and other terminal escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(OSC, '').replace(CSI, '').replace(OTHER_ESC, '')
}

/**
 * What a pty printed, as plain text for the model: what the terminal finally showed, with
 * escapes removed, CRLF as LF, and lines redrawn in place (spinners, progress bars) reduced to
 * their last state (see shared/terminal-screen).
 */
export function plainText(text: string): string {
  return terminalScreen(text)
}

/** How many bytes at the end of `bytes` start a UTF-8 character that is not complete yet. */
export function incompleteUtf8Tail(bytes: Uint8Array): number {
  const end = bytes.length
  for (let back = 1; back <= Math.min(3, end); back++) {
    const byte = bytes[end - back] ?? 0
    if ((byte & 0xc0) === 0x80) continue // a continuation byte: keep looking for the lead
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return needed > back ? back : 0
  }
  return 0
}

/** How many bytes at the start of `bytes` continue a character whose start was cut off. */
export function orphanUtf8Head(bytes: Uint8Array): number {
  let count = 0
  while (count < Math.min(3, bytes.length) && ((bytes[count] ?? 0) & 0xc0) === 0x80) count++
  return count
}
