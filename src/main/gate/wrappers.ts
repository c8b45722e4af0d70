import { scanOptions, type FoundOption, type OptionSpec } from './option-scan'
import { isRiskyVariable } from './risky-variables'
import type { Token } from './shell-token'

// Commands that run another command (`timeout 5 git status`, `env FOO=1 git status`,
// `builtin eval …`) are judged as the command they run: its rules, its options, whether it is a
// shell reading a script or a builtin that runs code. A wrapper whose options are not understood
// hides what it runs, which is a concern. `sudo` and `doas` are looked through for what runs,
// but a rule must name them: a rule for `ls` is not one for running `ls` as root. A wrapper named
// by a path (`/tmp/env git status`) might not be that wrapper, so a rule must name it too.

export interface Unwrapped {
  /** The command that really runs, every wrapper removed. */
  argv: Token[]
  /** What a rule is matched against: wrappers removed up to one a rule must name. */
  ruled: Token[]
  concerns: string[]
}

/** The wrapped command's argv, or `self` when the wrapper runs nothing else, or null. */
type Skip = Token[] | 'self' | null

interface Wrapper {
  skip: (argv: Token[], concerns: string[]) => Skip
  /** Changes who runs the command: a rule must name the wrapper. */
  opaque?: true
}

const FROM_STDIN: Token = { known: false, source: '(the words xargs reads from standard input)' }

/** A wrapper whose options, read by `spec` (and passing `check`), end where its command begins. */
function simple(spec: OptionSpec, check?: (options: FoundOption[]) => boolean): Wrapper {
  return {
    skip: (argv) => {
      const scan = scanOptions(argv, 1, { ...spec, stopAtOperand: true })
      const unknownValue = scan.options.some((o) => o.value && !o.value.known)
      if (scan.unknown.length > 0 || unknownValue || (check && !check(scan.options))) return null
      return argv.slice(scan.end)
    }
  }
}

const wrappers: Record<string, Wrapper> = {
  builtin: simple({}),
  command: {
    skip: (argv) => {
      const scan = scanOptions(argv, 1, { flags: 'pvV', stopAtOperand: true })
      if (scan.unknown.length > 0) return null
      // `command -v name` only says what a name is.
      if (scan.options.some((o) => o.name !== '-p')) return 'self'
      return argv.slice(scan.end)
    }
  },
  nohup: simple({}),
  time: simple({ flags: 'p' }),
  nice: {
    skip: (argv) => {
      // `nice -5 cmd` is an old spelling of `-n 5`.
      const at = argv[1]?.known && /^-\d+$/.test(argv[1].text) ? 2 : 1
      const scan = scanOptions(argv, at, {
        valued: 'n',
        long: { adjustment: 'value' },
        abbreviations: true,
        stopAtOperand: true
      })
      const numeric = scan.options.every((o) => o.value?.known && /^-?\d+$/.test(o.value.text))
      return scan.unknown.length > 0 || !numeric ? null : argv.slice(scan.end)
    }
  },
  timeout: {
    skip: (argv) => {
      const scan = scanOptions(argv, 1, {
        flags: 'v',
        valued: 'sk',
        long: {
          signal: 'value',
          'kill-after': 'value',
          'preserve-status': 'flag',
          foreground: 'flag',
          verbose: 'flag'
        },
        abbreviations: true,
        stopAtOperand: true
      })
      const duration = argv[scan.end]
      if (scan.unknown.length > 0 || !duration?.known) return null
      return /^\d+(\.\d+)?[smhd]?$/.test(duration.text) ? argv.slice(scan.end + 1) : null
    }
  },
  stdbuf: simple(
    {
      valued: 'ioe',
      long: { input: 'value', output: 'value', error: 'value' },
      abbreviations: true
    },
    (options) => options.every((o) => o.value?.known && /^(L|0|\d+[KMG]?B?)$/.test(o.value.text))
  ),
  setsid: simple({
    flags: 'cfw',
    long: { ctty: 'flag', fork: 'flag', wait: 'flag' },
    abbreviations: true
  }),
  // `busybox sh -c …` is that applet; `busybox --list` runs none.
  busybox: {
    skip: (argv) => (argv[1]?.known && argv[1].text.startsWith('-') ? 'self' : argv.slice(1))
  },
  env: { skip: env },
  xargs: { skip: xargs },
  sudo: {
    opaque: true,
    skip: simple({
      flags: 'EHnASPbkBN',
      valued: 'ugCDhprtTUR',
      long: {
        user: 'value',
        group: 'value',
        'preserve-env': 'optional',
        'non-interactive': 'flag',
        'set-home': 'flag',
        background: 'flag',
        askpass: 'flag',
        'close-from': 'value',
        chdir: 'value',
        host: 'value',
        prompt: 'value',
        'other-user': 'value'
      },
      abbreviations: true
    }).skip
  },
  doas: { opaque: true, skip: simple({ flags: 'n', valued: 'u' }).skip }
}

/** Strips wrapper commands, however nested, down to the command that really runs. */
export function unwrap(argv: Token[]): Unwrapped {
  const concerns: string[] = []
  let rest = argv
  let ruled: Token[] | null = null
  for (let guard = 0; guard < 16; guard++) {
    const name = rest[0]
    if (!name?.known) break
    const base = name.text.slice(name.text.lastIndexOf('/') + 1)
    const wrapper = Object.hasOwn(wrappers, base) ? wrappers[base] : undefined
    if (!wrapper) break
    const inner = wrapper.skip(rest, concerns)
    if (inner === null) {
      concerns.push(
        `the options of \`${name.text}\` are not understood, so what it runs is not known`
      )
      break
    }
    if (inner === 'self' || inner.length === 0) break
    if (ruled === null && (wrapper.opaque || base !== name.text)) ruled = rest
    rest = inner
  }
  return { argv: rest, ruled: ruled ?? rest, concerns }
}

/** `env [-i] [-u NAME] [NAME=value…] [--] command`: a risky name set or removed is a concern. */
function env(argv: Token[], concerns: string[]): Skip {
  let i = 1
  while (i < argv.length) {
    const t = argv[i]
    if (!t?.known) return null
    if (/^(-i|--ignore-environment|-0|--null|-)$/.test(t.text)) i += 1
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
    } else if (t.text === '--') {
      i += 1
      break
    } else if (t.text.startsWith('-')) return null
    else break
  }
  return argv.slice(i)
}

/**
 * `xargs [options] command [args]`: the command gets more words from standard input, which could
 * be any option of it (`--pre=bash` for rg), so they stand as one unknown word at the end; with
 * `-I R`, every word holding R is replaced by what is read, and so is unknown.
 */
function xargs(argv: Token[], concerns: string[]): Skip {
  const scan = scanOptions(argv, 1, {
    flags: '0rtpxo',
    valued: 'adEILnPsI',
    optional: 'eil',
    long: {
      null: 'flag',
      'no-run-if-empty': 'flag',
      verbose: 'flag',
      interactive: 'flag',
      exit: 'flag',
      'open-tty': 'flag',
      'arg-file': 'value',
      delimiter: 'value',
      eof: 'optional',
      replace: 'optional',
      'max-lines': 'optional',
      'max-args': 'value',
      'max-procs': 'value',
      'max-chars': 'value',
      'process-slot-var': 'value'
    },
    abbreviations: true,
    stopAtOperand: true
  })
  if (scan.unknown.length > 0) return null
  let replace: string | null = null
  for (const option of scan.options) {
    if (option.value && !option.value.known) return null
    const value = option.value?.known ? option.value.text : undefined
    if (option.name === '-I') replace = value ?? null
    if (option.name === '-i' || option.name === '--replace') replace = value ?? '{}'
    if (option.name === '--process-slot-var' && value !== undefined && isRiskyVariable(value)) {
      concerns.push(`\`xargs --process-slot-var=${value}\` changes how the command runs`)
    }
  }
  const command = argv.slice(scan.end)
  // With no command, xargs runs echo.
  if (command.length === 0) return []
  if (replace === null) return [...command, FROM_STDIN]
  const marker = replace
  return command.map((t) =>
    t.known && t.text.includes(marker) ? { known: false, source: t.text } : t
  )
}

function unsets(name: Token | undefined, concerns: string[]): void {
  if (!name?.known) concerns.push('`env -u` removes a variable that is not known')
  else if (isRiskyVariable(name.text)) {
    concerns.push(`\`env -u ${name.text}\` changes how the command runs`)
  }
}
