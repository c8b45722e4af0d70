// Escape sequences a terminal acts on but a model should not read: OSC (titles, hyperlinks)
// ended by BEL or ST, CSI (colours, cursor moves), and the two-byte ESC forms.
// eslint-disable-next-line no-control-regex
const OSC = /\x1b\][\s\S]*?(?:\x07|\x1b\\)/g
// eslint-disable-next-line no-control-regex
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g
// eslint-disable-next-line no-control-regex
const OTHER_ESC = /\x1b(?:[()*+][0-9A-Za-z]|[@-Z\\^_=>78])/g
// Control characters other than tab and newline (carriage returns are handled per line).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g

/** Removes colours and other terminal escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(OSC, '').replace(CSI, '').replace(OTHER_ESC, '')
}

/**
 * What a pty printed, as plain text for the model: escapes removed, CRLF as LF, and a line
 * redrawn with carriage returns (a progress bar) reduced to what it finally showed.
 */
export function plainText(text: string): string {
  return stripAnsi(text)
    .split('\n')
    .map((line) => {
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line
      const lastReturn = trimmed.lastIndexOf('\r')
      return (lastReturn === -1 ? trimmed : trimmed.slice(lastReturn + 1)).replace(CONTROL, '')
    })
    .join('\n')
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
