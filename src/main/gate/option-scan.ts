import type { Token } from './shell-token'

// Programs read their options with getopt (or something shaped like it), and the judge must
// read them the same way or an option slips past it: a value joined to its option (`-O'x'`,
// `--output=x`), short flags bundled (`sed -ne`, where `e` takes the next word), a long option
// abbreviated to any unambiguous prefix (`--out=x` for `--output=x`), and `--` ending options.
// This reads an argv once, the way GNU getopt would, so each program's knowledge (see
// program-options.ts) is a table, not another hand-written loop.

export type LongKind = 'flag' | 'value' | 'optional'

export interface OptionSpec {
  /** Short options that take no value. */
  flags?: string
  /** Short options that take a value, joined (`-n5`) or as the next word (`-n 5`). */
  valued?: string
  /** Short options whose value can only be joined (`sed -i.bak`, `xargs -i{}`). */
  optional?: string
  /** Long options by name, without the dashes. */
  long?: Record<string, LongKind>
  /** Long options may be abbreviated to a unique prefix (GNU getopt, git). */
  abbreviations?: boolean
  /** Options end at the first operand (`timeout 5 cmd -x`), as for programs that run another. */
  stopAtOperand?: boolean
  /** Long options may also be written with one dash (`find -exec`, `-name`); no bundling then. */
  singleDashLong?: boolean
}

export interface FoundOption {
  /** The option as the program knows it: `-n`, or `--max-args` in full. */
  name: string
  /** Its value, when it takes one and has one. */
  value?: Token
  /** As written, for messages. */
  written: string
}

export interface Scan {
  options: FoundOption[]
  /** Words that are not options, with their index in argv. */
  operands: { token: Token; index: number }[]
  /** Options the spec does not know, as written: the program may read them otherwise. */
  unknown: string[]
  /** Words whose value is not known where an option could be (`$x`): they could be any option. */
  unsure: Token[]
  /** Index in argv where options stopped (the first operand, with `stopAtOperand`). */
  end: number
}

/** Reads `argv` from `start` as getopt would with `spec`. */
export function scanOptions(argv: readonly Token[], start: number, spec: OptionSpec): Scan {
  const scan: Scan = { options: [], operands: [], unknown: [], unsure: [], end: argv.length }
  let i = start
  for (; i < argv.length; i++) {
    const word = argv[i]
    if (!word) break
    if (!word.known) {
      if (spec.stopAtOperand) break
      scan.unsure.push(word)
      scan.operands.push({ token: word, index: i })
      continue
    }
    const text = word.text
    if (text === '--') {
      i++
      break
    }
    if (!text.startsWith('-') || text === '-') {
      if (spec.stopAtOperand) break
      scan.operands.push({ token: word, index: i })
      continue
    }
    i = readOption(argv, i, spec, scan)
  }
  scan.end = Math.min(i, argv.length)
  if (!spec.stopAtOperand) {
    for (let j = i; j < argv.length; j++) {
      const token = argv[j]
      if (token) scan.operands.push({ token, index: j })
    }
  }
  return scan
}

/** Reads the option at `i`, records it, and returns the index of its last word. */
function readOption(argv: readonly Token[], i: number, spec: OptionSpec, scan: Scan): number {
  const text = (argv[i] as { text: string }).text
  const long = text.startsWith('--') || (spec.singleDashLong === true && text.length > 2)
  if (long) {
    const body = text.replace(/^--?/, '')
    const eq = body.indexOf('=')
    const written = eq < 0 ? body : body.slice(0, eq)
    const name = longName(written, spec)
    if (name === null) {
      scan.unknown.push(text)
      return i
    }
    const kind = spec.long?.[name] ?? 'flag'
    const option: FoundOption = { name: `--${name}`, written: text }
    if (eq >= 0) option.value = { known: true, text: body.slice(eq + 1) }
    else if (kind === 'value') {
      option.value = argv[i + 1]
      scan.options.push(option)
      return i + 1
    }
    scan.options.push(option)
    return i
  }
  const letters = text.slice(1)
  for (let k = 0; k < letters.length; k++) {
    const letter = letters[k] ?? ''
    const name = `-${letter}`
    const rest = letters.slice(k + 1)
    if (spec.flags?.includes(letter)) {
      scan.options.push({ name, written: text })
    } else if (spec.valued?.includes(letter)) {
      if (rest !== '') {
        scan.options.push({ name, written: text, value: { known: true, text: rest } })
        return i
      }
      scan.options.push({ name, written: text, value: argv[i + 1] })
      return i + 1
    } else if (spec.optional?.includes(letter)) {
      const option: FoundOption = { name, written: text }
      if (rest !== '') option.value = { known: true, text: rest }
      scan.options.push(option)
      return i
    } else {
      // Not known here: read on as if it were a flag, so a known letter after it is still seen
      // (were it one that takes a value, the rest would be that value, and harmless).
      scan.unknown.push(name)
    }
  }
  return i
}

/**
 * The long option `written` stands for: itself, or with abbreviations the one option it is a
 * prefix of. An ambiguous or unknown one is left to the caller (see `mentions`).
 */
function longName(written: string, spec: OptionSpec): string | null {
  const names = Object.keys(spec.long ?? {})
  if (names.includes(written)) return written
  if (!spec.abbreviations || written === '') return null
  const matches = names.filter((n) => n.startsWith(written))
  return matches.length === 1 ? (matches[0] ?? null) : null
}

/**
 * Whether the word `text` may be the long option `name` as some program reads it: in full, with
 * a joined value, or abbreviated (any prefix: a unique one to the program is all getopt needs,
 * and the judge does not know every option the program has).
 */
export function mentions(text: string, name: string, minimum = 1): boolean {
  if (!text.startsWith('--')) return false
  const body = text.slice(2)
  const written = body.includes('=') ? body.slice(0, body.indexOf('=')) : body
  return written.length >= minimum && name.startsWith(written)
}

/** A value that is one word whatever it holds (`"$x"`): not split, not a pattern. */
export function isOneWord(token: Token): boolean {
  return token.known || /^"[^"]*"$/.test(token.source)
}

/** The option as written, with its value when that was the next word. */
export function shown(option: FoundOption): string {
  const value = option.value
  if (!value) return option.written
  const text = value.known ? value.text : value.source
  return option.written.endsWith(text) ? option.written : `${option.written} ${text}`
}
