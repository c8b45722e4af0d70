/** Far more than any API key; more than this on stdin is a file piped by mistake. */
const MAX_KEY_BYTES = 16 * 1024

/** What came on stdin is not one key: exit code 2, without the usage (the command was right). */
export class KeyInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KeyInputError'
  }
}

/** Stopped while the key was being typed: nothing was stored. */
export class KeyEntryCancelled extends Error {
  constructor() {
    super('the key was not entered; nothing was stored')
    this.name = 'KeyEntryCancelled'
  }
}

/**
 * The key for `name` from stdin: typed at a terminal with nothing echoed, or all of a pipe with
 * its final line break dropped (`printf %s "$KEY" |`, `pass show x |`, `< file`). What is not
 * one key (empty, several lines, control characters, too long) is refused, never stored.
 */
export async function readKey(name: string): Promise<string> {
  const raw = process.stdin.isTTY ? await typed(name) : await piped()
  return checkedKey(raw.replace(/\r?\n$/, ''))
}

function checkedKey(key: string): string {
  if (key === '') throw new KeyInputError('no key was given on stdin; nothing was stored')
  if (Array.from(key).some(isControl)) {
    throw new KeyInputError(
      'the key has a line break or another control character in it; give exactly one key, on one line (nothing was stored)'
    )
  }
  return key
}

function isControl(char: string): boolean {
  const code = char.codePointAt(0) ?? 0
  return code < 0x20 || code === 0x7f
}

async function piped(): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
    size += buffer.length
    if (size > MAX_KEY_BYTES) {
      process.stdin.destroy()
      throw new KeyInputError(
        `stdin holds more than ${MAX_KEY_BYTES / 1024} KiB, which is not one key; pipe only the key (nothing was stored)`
      )
    }
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Raw mode turns the terminal's echo off, so the key never shows on screen or in a recording of
 * it; the prompt goes to stderr so stdout stays only the confirmation.
 */
function typed(name: string): Promise<string> {
  const stdin = process.stdin
  // Echo goes off before the prompt shows, so nothing typed once it is seen is echoed.
  stdin.setRawMode(true)
  process.stderr.write(`Key for ${name} (not shown as you type; Enter ends it): `)
  return new Promise((resolve, reject) => {
    let key = ''
    const finish = (error: Error | null): void => {
      stdin.off('data', onData)
      stdin.setRawMode(false)
      stdin.pause()
      process.stderr.write('\n')
      if (error) reject(error)
      // A terminal's bracketed paste wraps pasted text in markers that are not part of the key.
      else resolve(key.replaceAll('\u001b[200~', '').replaceAll('\u001b[201~', ''))
    }
    const onData = (chunk: Buffer): void => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(null)
        // Ctrl-C and Ctrl-D: raw mode delivers them as characters instead of signals.
        if (char === '\u0003' || char === '\u0004') return finish(new KeyEntryCancelled())
        if (char === '\u007f' || char === '\b') key = Array.from(key).slice(0, -1).join('')
        else key += char
      }
    }
    stdin.resume()
    stdin.on('data', onData)
  })
}
