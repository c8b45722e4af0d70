import { gitOptions, GIT_SUMMARY } from './git-options'
import { interpreters } from './interpreters'
import { FILE_TOOLS } from './file-tool-options'
import type { Danger, Knowledge, OptionFinding } from './option-knowledge'
import { isOneWord, mentions, scanOptions, shown, type FoundOption } from './option-scan'
import { REMOTE_TOOLS } from './remote-options'
import { modernTar, TAR } from './tar-options'
import { VIEWERS } from './viewer-options'
import type { Token } from './shell-token'

// A rule for a program covers running it on its arguments, not the options with which it runs
// another program (`find -exec`, `rg --pre`), writes a path the line does not name as a
// redirection (`sort -o`, `less -o`), or reads its code or settings from elsewhere (`man -C`,
// `ssh -F`): a person allowing `find` to search did not allow it to run `touch`. Each program
// here maps to what the judge knows of its options; a word only known when the line runs, where
// an option could be, could be any of them, so it asks too. A program not listed here has no
// option known to the judge to do any of that; one that does belongs here.

export type { Knowledge, OptionFinding } from './option-knowledge'

const KNOWLEDGE: Record<string, Knowledge> = {
  ...FILE_TOOLS,
  ...VIEWERS,
  ...REMOTE_TOOLS,
  ...interpreters,
  tar: { ...TAR, prepare: modernTar }
}

/**
 * The options in `argv` (a command with its wrappers removed) that a rule for its program does
 * not cover, each said in words; none for a program the judge knows nothing dangerous of.
 */
export function optionFindings(argv: readonly Token[]): OptionFinding[] {
  const name = argv[0]
  if (!name?.known) return []
  const program = programName(name.text)
  if (program === 'git') return gitOptions(argv)
  const knowledge = knowledgeOf(program)
  return knowledge ? judgeOptions(knowledge, argv) : []
}

/** What a rule whose words start with `program` does not cover, in words; null when nothing. */
export function notCoveredBy(program: string): string | null {
  const base = programName(program)
  if (base === 'git') return GIT_SUMMARY
  return knowledgeOf(base)?.summary ?? null
}

function knowledgeOf(program: string): Knowledge | undefined {
  return Object.hasOwn(KNOWLEDGE, program) ? KNOWLEDGE[program] : undefined
}

/** A program's name as the table knows it: `/usr/bin/python3.12` is python, `gawk` is awk. */
export function programName(text: string): string {
  const base = text.slice(text.lastIndexOf('/') + 1)
  const aliases: Record<string, string> = {
    gawk: 'awk', mawk: 'awk', nawk: 'awk', gsed: 'sed', gtar: 'tar', bsdtar: 'tar',
    vi: 'vim', nvim: 'vim', view: 'vim', vimdiff: 'vim', gvim: 'vim', ex: 'vim', rview: 'vim',
    nodejs: 'node', perl5: 'perl'
  } // prettier-ignore
  if (Object.hasOwn(aliases, base)) return aliases[base] ?? base
  return /^python[\d.]*$/.test(base) ? 'python' : base
}

/** Reads `argv` with `knowledge` and lists what its options do that no rule covers. */
export function judgeOptions(knowledge: Knowledge, given: readonly Token[]): OptionFinding[] {
  const argv = knowledge.prepare ? knowledge.prepare(given) : given
  const scan = scanOptions(argv, 1, knowledge.spec)
  const findings: OptionFinding[] = []
  for (const option of scan.options) {
    const danger = knowledge.danger[option.name]
    if (danger) findings.push(finding(option, danger))
    else if (option.value && !isOneWord(option.value)) scan.unsure.push(option.value)
  }
  // An unknown long option may be an abbreviation of a dangerous one (`--out=` for `--output=`).
  for (const written of scan.unknown) {
    for (const [name, danger] of Object.entries(knowledge.danger)) {
      if (!name.startsWith('--') || !mentions(written, name.slice(2))) continue
      const eq = written.indexOf('=')
      const value: Token | undefined =
        eq < 0 ? undefined : { known: true, text: written.slice(eq + 1) }
      findings.push(finding({ name, written, ...(value ? { value } : {}) }, danger))
      break
    }
  }
  for (const token of scan.unsure) {
    findings.push({
      option: token.known ? token.text : token.source,
      why: `is only known when the line runs, and could be an option of ${programName(textOf(argv[0]))} that runs a program or writes a file`
    })
  }
  findings.push(...(knowledge.more?.(scan, argv) ?? []))
  return findings
}

function finding(option: FoundOption, danger: Danger): OptionFinding {
  const written = shown(option)
  if (!danger.writes) return { option: written, why: danger.why }
  if (option.value?.known) return { option: written, why: danger.why, writes: option.value }
  return { option: written, why: `${danger.why} whose name is only known when the line runs` }
}

function textOf(token: Token | undefined): string {
  return token?.known ? token.text : ''
}
