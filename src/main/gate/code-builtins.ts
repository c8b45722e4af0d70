import { scanOptions } from './option-scan'
import type { Token } from './shell-token'

// Builtins that run text as code, now or later (`eval`, `source`, `trap`, an alias), or that
// replace the shell (`exec`), and builtins with an option that names code to call back
// (`mapfile -C`). What they run is not a command the judge can see, so no rule can allow them.
// They are judged behind `builtin` and `command` too (see wrappers.ts), as bash runs them so.
const RUN_CODE = new Set([
  'eval',
  'exec',
  'source',
  '.',
  'trap',
  'alias',
  'coproc',
  'fc',
  'bind',
  // their word lists are expanded, substitutions and all, and `-C` runs a command
  'compgen',
  'complete'
])

/** Why the builtin `argv` (its wrappers removed) runs code no rule can see, or null. */
export function codeBuiltin(argv: readonly Token[]): string | null {
  const name = argv[0]
  if (!name?.known) return null
  if (RUN_CODE.has(name.text)) return `\`${name.text}\` runs code that the rule cannot see`
  if (name.text !== 'mapfile' && name.text !== 'readarray') return null
  const scan = scanOptions(argv, 1, { valued: 'dnOsuCc', flags: 't' })
  if (scan.options.some((o) => o.name === '-C')) {
    return `\`${name.text} -C\` runs the code it is given as a callback, which the rule cannot see`
  }
  if (scan.unsure.length > 0 || scan.unknown.length > 0) {
    return `\`${name.text}\` is given words only known when the line runs, or options the judge does not know, and \`-C\` among them would run code`
  }
  return null
}
