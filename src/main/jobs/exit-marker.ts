import { randomBytes } from 'node:crypto'

/** An OSC sequence number no terminal uses: xterm.js ignores it, and plain text drops it. */
const OSC_NUMBER = 7770
const SCAN_LIMIT = 64
const EMPTY = Buffer.alloc(0)

/**
 * Proof that a command's output has all been read. Linux can report a pty closed before its last
 * few kilobytes are read (node-pty then drops them), so the shell prints this marker to its
 * terminal from an EXIT trap and waits; the marker arriving means everything before it has
 * arrived, and the exit code comes with it. The nonce keeps a command's own output from
 * faking it by accident.
 */
export class ExitMarker {
  private readonly prefix: Buffer
  private held: Buffer = EMPTY
  private found: number | null = null

  /** `nonce` is random unless a test gives one. */
  constructor(private readonly nonce: string = randomBytes(6).toString('hex')) {
    this.prefix = Buffer.from(`\x1b]${OSC_NUMBER};${this.nonce};`)
  }

  /**
   * The script that runs `command` under the trap. Stdin is /dev/null (nobody can type), and
   * the trap writes to the terminal itself so a command's own redirections cannot hide it. The
   * `sleep` keeps the terminal open until the marker is seen and the shell is stopped.
   */
  script(command: string): string {
    const report = `printf "\\033]${OSC_NUMBER};${this.nonce};%d\\007" "$?" >/dev/tty 2>/dev/null`
    return `exec </dev/null; trap '${report}; sleep 10' EXIT; ${command}`
  }

  /** The exit code, once the marker has been seen. */
  get exitCode(): number | null {
    return this.found
  }

  /**
   * Passes the next chunk of output on without the marker. Bytes at the end that may begin the
   * marker are held back until the next chunk tells; `flush` gives back what is still held.
   */
  filter(chunk: Buffer): Buffer {
    if (this.found !== null) return chunk
    const view = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk
    this.held = EMPTY
    const at = view.indexOf(this.prefix)
    if (at !== -1) {
      const end = view.indexOf(0x07, at + this.prefix.length)
      if (end === -1 && view.length - at < SCAN_LIMIT) {
        this.held = Buffer.from(view.subarray(at))
        return view.subarray(0, at)
      }
      const code = end === -1 ? NaN : Number(view.toString('latin1', at + this.prefix.length, end))
      if (!Number.isInteger(code)) return view
      this.found = code
      return Buffer.concat([view.subarray(0, at), view.subarray(end + 1)])
    }
    const hold = this.partialPrefixAtEnd(view)
    if (hold === 0) return view
    this.held = Buffer.from(view.subarray(view.length - hold))
    return view.subarray(0, view.length - hold)
  }

  /** What was held back as a possible marker, now that no more output comes. */
  flush(): Buffer {
    const rest = this.held
    this.held = EMPTY
    return rest
  }

  /** How many bytes at the end of `view` are the start of the marker's prefix. */
  private partialPrefixAtEnd(view: Buffer): number {
    const from = Math.max(0, view.length - this.prefix.length + 1)
    const esc = view.indexOf(0x1b, from)
    if (esc === -1) return 0
    for (let at = esc; at < view.length; at++) {
      const tail = view.subarray(at)
      if (tail[0] === 0x1b && this.prefix.subarray(0, tail.length).equals(tail)) {
        return view.length - at
      }
    }
    return 0
  }
}
