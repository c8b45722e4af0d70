import type { OptionSpec, Scan } from './option-scan'
import type { Token } from './shell-token'

// The shape of what the judge knows of a program's options (see program-options.ts), apart from
// the tables, so each table can live with its kind of program.

/** An option a rule for its program does not cover. */
export interface OptionFinding {
  /** The option as written, with its value: `-exec`, `--output=x`, `-o out.txt`. */
  option: string
  /** What it does, as the middle of a sentence: "runs a command on each file it finds". */
  why: string
  /** The path it writes, when writing that path is all it does: judged like a redirection. */
  writes?: Token
}

/** What the judge knows of one program's options. */
export interface Knowledge {
  spec: OptionSpec
  /** Options by name (`-o`, `--output`, as `scanOptions` names them) and what each does. */
  danger: Record<string, Danger>
  /** Further findings from the whole argv: a script's text, a mode letter. */
  more?: (scan: Scan, argv: readonly Token[]) => OptionFinding[]
  /** The argv as the program reads it (tar's old style `tar czf x.tgz dir` made modern). */
  prepare?: (argv: readonly Token[]) => Token[]
  /** What a rule for the program does not cover, in words, for the rule preview. */
  summary: string
}

/** `writes`: the option's value is a path it writes; otherwise no rule for the program covers it. */
export interface Danger {
  why: string
  writes?: true
}

export const run = (why: string): Danger => ({ why })
export const write = (why: string): Danger => ({ why, writes: true })

/** Operands starting with `+` (less, vim): commands run on start. */
export function plusCommands(scan: Scan, why: string): OptionFinding[] {
  return scan.operands.flatMap(({ token }) =>
    token.known && token.text.startsWith('+') ? [{ option: token.text, why }] : []
  )
}
