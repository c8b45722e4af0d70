// A sed script is a program: `e` runs a shell command, `s/…/…/e` runs the pattern space as one,
// and `w file` (a command, or a flag of `s`) writes a file the line does not name as a
// redirection. Telling those apart from `s/e/w/` needs the script read as GNU sed reads it
// (addresses, delimiters, escapes, the text of `a`, `i`, `c`), so this reads it; anything it
// cannot read is reported as such, and asks.

/** What a sed script does beyond editing its stream. */
export interface SedScript {
  /** Each `e` command or `s///e` flag, as written. */
  runs: string[]
  /** Each file a `w`/`W` command or `s///w` flag writes. */
  writes: string[]
  /** Why the script could not be read, or null. */
  unreadable: string | null
}

// GNU sed writes these two to its own streams, not to files.
const STREAMS = new Set(['/dev/stdout', '/dev/stderr'])
const SIMPLE = new Set([...'=dDgGhHnNpPxzF'])
const NUMBERED = new Set([...'lqQL'])

class Unreadable extends Error {}

/** Reads `script` as GNU sed would and lists what it runs and writes. */
export function readSedScript(script: string): SedScript {
  const result: SedScript = { runs: [], writes: [], unreadable: null }
  const reader = new Reader(script, result)
  try {
    reader.commands()
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error
    result.unreadable = error.message
  }
  return result
}

class Reader {
  private i = 0

  constructor(
    private readonly s: string,
    private readonly out: SedScript
  ) {}

  commands(): void {
    for (;;) {
      this.skip(' \t\n;')
      if (this.i >= this.s.length) return
      if (this.s[this.i] === '#') {
        this.restOfLine()
        continue
      }
      this.address()
      this.skip(' \t')
      if (this.s[this.i] === ',') {
        this.i++
        this.skip(' \t')
        this.address()
      }
      this.skip(' \t')
      while (this.s[this.i] === '!') {
        this.i++
        this.skip(' \t')
      }
      this.command(this.s[this.i++] ?? '')
    }
  }

  private command(letter: string): void {
    if (letter === '{' || letter === '}') return
    if (SIMPLE.has(letter)) return this.end()
    if (NUMBERED.has(letter)) {
      this.skip(' \t')
      this.digits()
      return this.end()
    }
    switch (letter) {
      case 'a':
      case 'i':
      case 'c':
        return this.text()
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        this.skip(' \t')
        while (this.i < this.s.length && !';\n'.includes(this.s[this.i] ?? '')) this.i++
        return
      case 'r':
      case 'R':
        this.restOfLine()
        return
      case 'w':
      case 'W':
        return this.written()
      case 'e':
        this.out.runs.push(`e${this.restOfLine()}`.trim())
        return
      case 's':
        return this.substitute()
      case 'y': {
        const delimiter = this.delimiter()
        this.part(delimiter)
        this.part(delimiter)
        return this.end()
      }
      default:
        throw new Unreadable(`the sed command \`${letter}\` is not one the judge knows`)
    }
  }

  private substitute(): void {
    const delimiter = this.delimiter()
    this.part(delimiter)
    this.part(delimiter)
    for (;;) {
      const flag = this.s[this.i] ?? ''
      if (flag === 'e') {
        this.out.runs.push('s///e')
        this.i++
      } else if (flag === 'w') {
        this.i++
        return this.written()
      } else if (flag !== '' && /[gpiImM0-9]/.test(flag)) this.i++
      else return this.end()
    }
  }

  private written(): void {
    const file = this.restOfLine().trim()
    if (file === '') throw new Unreadable('`w` names no file')
    if (!STREAMS.has(file)) this.out.writes.push(file)
  }

  /** `a text`, or `a\` and lines that each end in `\` but the last. */
  private text(): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i]
      if (c === '\\') this.i += 2
      else if (c === '\n') return
      else this.i++
    }
  }

  private address(): void {
    const c = this.s[this.i] ?? ''
    if (/[\d+~]/.test(c)) {
      this.i++
      this.digits()
      if (this.s[this.i] === '~') {
        this.i++
        this.digits()
      }
    } else if (c === '$') this.i++
    else if (c === '/' || c === '\\') {
      if (c === '\\') this.i++
      const delimiter = this.s[this.i++] ?? ''
      if (delimiter === '' || delimiter === '\n') throw new Unreadable('an address has no end')
      this.part(delimiter)
      while (/[IM]/.test(this.s[this.i] ?? '')) this.i++
    }
  }

  private delimiter(): string {
    const delimiter = this.s[this.i++] ?? ''
    if (delimiter === '' || delimiter === '\n' || delimiter === '\\') {
      throw new Unreadable('a command has no delimiter')
    }
    return delimiter
  }

  /** Up to and past the next `delimiter` not escaped by a backslash. */
  private part(delimiter: string): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i]
      if (c === '\\') this.i += 2
      else if (c === delimiter) {
        this.i++
        return
      } else this.i++
    }
    throw new Unreadable(`a part of the script is not closed by \`${delimiter}\``)
  }

  private end(): void {
    this.skip(' \t')
    const c = this.s[this.i]
    if (c === undefined || c === '}' || c === '#') return
    if (c === ';' || c === '\n') {
      this.i++
      return
    }
    throw new Unreadable(`\`${c}\` follows a command where sed expects its end`)
  }

  private restOfLine(): string {
    const start = this.i
    while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++
    return this.s.slice(start, this.i)
  }

  private digits(): void {
    while (/\d/.test(this.s[this.i] ?? '')) this.i++
  }

  private skip(chars: string): void {
    while (this.i < this.s.length && chars.includes(this.s[this.i] ?? '')) this.i++
  }
}
