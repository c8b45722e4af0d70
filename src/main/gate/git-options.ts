import { mentions } from './option-scan'
import type { OptionFinding } from './option-knowledge'
import type { Token } from './shell-token'

// Git runs programs its configuration names (core.pager, core.fsmonitor, diff.external, aliases
// starting with `!`), so `-c` and `--config-env` can make any read run anything, and
// `--exec-path` or `--git-dir` point it at programs or a configuration the line chose. Some
// subcommands run a program named on the line (`grep -O`, `fetch --upload-pack`, `archive
// --exec`), or external diff and text-conversion drivers (`--ext-diff`, `--textconv`). None of
// that is covered by a rule for git; writes into `.git` are judged apart (git-subcommands.ts).
// Only `-c` settings known to name no program pass. An expansion among a read's arguments
// (`git log $REV`) is left alone, as there: it could only be `--output` (met by the sandbox's
// read-only `.git`) or a driver the configuration names; `grep` is the exception, as `-O` runs
// whatever it is given.

/** What a rule for git does not cover, in words, for the rule preview. */
export const GIT_SUMMARY =
  '`-c` settings that can name a program, `--exec-path=`, `--git-dir`, `grep -O`, `--ext-diff`, `--textconv`, `--upload-pack`, `--receive-pack`, `--exec` and `--template`, nor any write into .git (those always need a person)'

const SAFE_SETTING = new RegExp(
  '^(' +
    [
      'color\\..*',
      'advice\\..*',
      'column\\..*',
      'i18n\\..*',
      'user\\.(name|email)',
      'core\\.(quotepath|abbrev|autocrlf|safecrlf|filemode|ignorecase|precomposeunicode)',
      'init\\.defaultbranch',
      'log\\.(date|decorate|abbrevcommit|follow|showroot|mailmap)',
      'diff\\.(renames|renamelimit|algorithm|noprefix|mnemonicprefix|context|interhunkcontext|relative|statgraphwidth|indentheuristic|colormoved|colormovedws|wserrorhighlight)',
      'grep\\.(linenumber|extendedregexp|patterntype|column|fullname)',
      'status\\.(short|branch|showuntrackedfiles|relativepaths|aheadbehind|renames|showstash)',
      'merge\\.conflictstyle',
      'format\\.pretty',
      'blame\\.date',
      'protocol\\.version'
    ].join('|') +
    ')$',
  'i'
)
// A pager that is one of these names a program that only shows text; `pager.<cmd>` may only
// be switched on or off.
const SAFE_PAGER = /^(cat|less|more|)$/
const BOOLEAN = /^(true|false|yes|no|on|off|1|0)$/i

const RUNS = 'runs the program it names'
const DRIVERS = 'runs the external diff or text-conversion programs the configuration names'
// Subcommand options (long, without dashes, or short letters) and what each does.
const SUBCOMMAND: Record<string, { long: Record<string, string>; short?: Record<string, string> }> =
  {
    grep: {
      long: { 'open-files-in-pager': 'opens the files it finds in the program it names', textconv: DRIVERS },
      short: { O: 'opens the files it finds in the program it names' }
    },
    fetch: { long: { 'upload-pack': RUNS } },
    pull: { long: { 'upload-pack': RUNS } },
    'ls-remote': { long: { 'upload-pack': RUNS } },
    clone: {
      long: { 'upload-pack': RUNS, template: 'copies hooks from a folder it names', config: 'sets configuration that can name programs' },
      short: { u: RUNS, c: 'sets configuration that can name programs' }
    },
    push: { long: { 'receive-pack': RUNS, exec: RUNS } },
    archive: { long: { exec: RUNS, remote: 'runs an archive command on another repository' } },
    rebase: { long: { exec: 'runs a command after each commit' }, short: { x: 'runs a command after each commit' } },
    difftool: { long: { extcmd: RUNS, tool: RUNS }, short: { x: RUNS, t: RUNS } },
    mergetool: { long: { tool: RUNS }, short: { t: RUNS } },
    'cat-file': { long: { textconv: DRIVERS, filters: 'runs the filters the configuration names' } },
    init: { long: { template: 'copies hooks from a folder it names' } }
  } // prettier-ignore
for (const sub of ['log', 'show', 'diff', 'whatchanged', 'diff-tree', 'diff-files', 'diff-index', 'format-patch', 'range-diff', 'blame', 'stash']) {
  SUBCOMMAND[sub] = { long: { 'ext-diff': DRIVERS, textconv: DRIVERS } }
} // prettier-ignore

const GLOBAL_WITH_VALUE = new Set(['-C', '--work-tree', '--namespace', '--attr-source'])

/** The options of a git command line (wrappers removed) that a rule for git does not cover. */
export function gitOptions(argv: readonly Token[]): OptionFinding[] {
  const findings: OptionFinding[] = []
  let at = 1
  for (; at < argv.length; at++) {
    const word = argv[at]
    if (!word?.known || !word.text.startsWith('-')) break
    const text = word.text
    if (text === '-c') {
      const setting = argv[++at]
      if (!setting || !safeSetting(setting)) {
        findings.push({
          option: `-c ${show(setting)}`,
          why: 'sets configuration that can name a program for git to run'
        })
      }
    } else if (text === '--config-env' || text.startsWith('--config-env=')) {
      if (text === '--config-env') at++
      findings.push({
        option: text,
        why: 'sets configuration that can name a program for git to run'
      })
    } else if (text.startsWith('--exec-path=')) {
      findings.push({ option: text, why: 'makes git run its commands from a folder it names' })
    } else if (text === '--git-dir' || text.startsWith('--git-dir=')) {
      const value =
        text === '--git-dir' ? argv[++at] : { known: true as const, text: text.slice(10) }
      if (!value?.known || !/^(\.\/)?\.git\/?$/.test(value.text)) {
        findings.push({
          option: `--git-dir=${show(value)}`,
          why: "reads another repository's configuration, which can name programs to run"
        })
      }
    } else if (GLOBAL_WITH_VALUE.has(text)) at++
  }
  const sub = argv[at]
  if (!sub?.known) return findings
  const known = Object.hasOwn(SUBCOMMAND, sub.text) ? SUBCOMMAND[sub.text] : undefined
  if (!known) return findings
  for (const arg of argv.slice(at + 1)) {
    if (!arg.known) {
      if (sub.text === 'grep') {
        findings.push({
          option: arg.source,
          why: 'is only known when the line runs, and could be `-O`, which runs a program'
        })
      }
      continue
    }
    if (arg.text === '--') break
    findings.push(...optionDanger(arg.text, known))
  }
  return findings
}

function optionDanger(
  text: string,
  known: { long: Record<string, string>; short?: Record<string, string> }
): OptionFinding[] {
  if (text.startsWith('--')) {
    for (const [name, why] of Object.entries(known.long)) {
      // git accepts any unambiguous prefix of a long option.
      if (mentions(text, name, 3)) return [{ option: text, why }]
    }
    return []
  }
  if (!text.startsWith('-')) return []
  for (const [letter, why] of Object.entries(known.short ?? {})) {
    if (text.slice(1).includes(letter)) return [{ option: text, why }]
  }
  return []
}

function safeSetting(token: Token): boolean {
  if (!token.known) return false
  const eq = token.text.indexOf('=')
  const key = (eq < 0 ? token.text : token.text.slice(0, eq)).toLowerCase()
  const value = eq < 0 ? 'true' : token.text.slice(eq + 1)
  if (key === 'core.pager') return SAFE_PAGER.test(value)
  if (/^pager\.[\w-]+$/.test(key)) return BOOLEAN.test(value)
  return SAFE_SETTING.test(key)
}

function show(token: Token | undefined): string {
  if (!token) return ''
  return token.known ? token.text : token.source
}
