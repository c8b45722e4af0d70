import { isRiskyVariable } from './risky-variables'
import type { Token } from './shell-token'

export interface Unwrapped {
  argv: Token[]
  concerns: string[]
}

type Skipper = (argv: Token[], at: number, concerns: string[]) => number | null

const flagsOnly =
  (flags: RegExp): Skipper =>
  (argv, at) => {
    let i = at
    while (i < argv.length && isKnown(argv[i], flags)) i++
    return i
  }

/**
 * Commands that run another command (`timeout 5 git status`, `env FOO=1 git status`): a rule is
 * matched against the command they run. Each returns the index where the wrapped command starts,
 * or null when its options are not understood (then the rule cannot judge it).
 */
const wrappers: Record<string, Skipper> = {
  nohup: (_argv, at) => at,
  time: flagsOnly(/^-p$/),
  command: flagsOnly(/^-p$/),
  nice: (argv, at) => {
    let i = at
    while (i < argv.length) {
      const t = argv[i]
      if (isKnown(t, /^-n$/)) i += 2
      else if (isKnown(t, /^(-\d+|--adjustment=-?\d+|-n-?\d+)$/)) i += 1
      else break
    }
    return i
  },
  timeout: (argv, at) => {
    let i = at
    while (i < argv.length) {
      const t = argv[i]
      if (isKnown(t, /^(-s|-k|--signal|--kill-after)$/)) i += 2
      else if (
        isKnown(t, /^(--signal=.+|--kill-after=.+|--preserve-status|--foreground|-v|--verbose)$/)
      )
        i += 1
      else break
    }
    // The duration comes next.
    return i < argv.length && isKnown(argv[i], /^\d+(\.\d+)?[smhd]?$/) ? i + 1 : null
  },
  env: (argv, at, concerns) => {
    let i = at
    while (i < argv.length) {
      const t = argv[i]
      if (!t?.known) return null
      if (/^(-i|--ignore-environment|-0|--null)$/.test(t.text)) i += 1
      else if (/^(-u|--unset)$/.test(t.text)) {
        unsets(argv[i + 1], concerns)
        i += 2
      } else if (/^--unset=/.test(t.text)) {
        unsets({ known: true, text: t.text.slice('--unset='.length) }, concerns)
        i += 1
      } else if (/^[A-Za-z_]\w*=/.test(t.text)) {
        const name = t.text.slice(0, t.text.indexOf('='))
        if (isRiskyVariable(name)) concerns.push(`\`env ${name}=\` changes how the command runs`)
        i += 1
      } else if (t.text.startsWith('-')) return null
      else break
    }
    return i
  }
}

/** Strips wrapper commands, however nested, down to the command that really runs. */
export function unwrap(argv: Token[]): Unwrapped {
  const concerns: string[] = []
  let rest = argv
  for (let guard = 0; guard < 16; guard++) {
    const name = rest[0]
    if (!name?.known) break
    const skip = wrappers[name.text]
    if (!skip) break
    const start = skip(rest, 1, concerns)
    if (start === null) {
      concerns.push(`the options of \`${name.text}\` are not understood`)
      break
    }
    if (start >= rest.length) break
    rest = rest.slice(start)
  }
  return { argv: rest, concerns }
}

function unsets(name: Token | undefined, concerns: string[]): void {
  if (!name?.known) concerns.push('`env -u` removes a variable that is not known')
  else if (isRiskyVariable(name.text)) {
    concerns.push(`\`env -u ${name.text}\` changes how the command runs`)
  }
}

function isKnown(token: Token | undefined, pattern: RegExp): boolean {
  return token?.known === true && pattern.test(token.text)
}
