import type { Knowledge, OptionFinding } from './option-knowledge'
import type { FoundOption, Scan } from './option-scan'
import { readSedScript } from './sed-script'
import type { Token } from './shell-token'

// Programs whose arguments are code. awk's and sed's are small languages the judge reads: a
// rule for `awk` covers `awk '{print $1}'`, not a program that calls system(), reads a command's
// output with `| getline`, or sends `print` to a file or a command; a rule for `sed` covers
// `sed -n 's/a/b/p'`, not its `e` command, its `w` file or `-i` editing files in place. Perl,
// Python, Node and Ruby code is not read at all: code given on the line (`-e`, `-c`), modules
// loaded before it, or a program read from standard input need a person; a script file is what
// the rule is for.

const run = (why: string): { why: string } => ({ why })
const LOADS = 'loads code from elsewhere before the program'
const IN_PLACE = 'edits the files it is given in place'
const STDIN = 'reads more code from standard input'
const PROGRAM_FILE = run('reads its program from a file the rule cannot see')

// gawk's options; mawk's `-W` and busybox's `-e` fall in with them.
const AWK: Knowledge = {
  spec: {
    valued: 'fFveEilW',
    optional: 'dDLop',
    long: {
      ...Object.fromEntries(
        ['assign', 'field-separator', 'file', 'source', 'exec', 'include', 'load'].map((n) => [
          n,
          'value' as const
        ])
      ),
      ...Object.fromEntries(
        ['dump-variables', 'debug', 'profile', 'pretty-print', 'lint'].map((n) => [
          n,
          'optional' as const
        ])
      ),
      sandbox: 'flag',
      posix: 'flag',
      traditional: 'flag',
      version: 'flag',
      help: 'flag'
    },
    abbreviations: true,
    stopAtOperand: true
  },
  danger: {
    '-f': PROGRAM_FILE,
    '--file': PROGRAM_FILE,
    '-E': PROGRAM_FILE,
    '--exec': PROGRAM_FILE,
    '-i': run('loads awk code from a file'),
    '--include': run('loads awk code from a file'),
    '-l': run('loads a compiled extension, which is code'),
    '--load': run('loads a compiled extension, which is code'),
    '-W': run('passes an option of its own (mawk `-W exec` reads a program file)'),
    ...Object.fromEntries(
      ['-d', '--dump-variables', '-p', '--profile', '-o', '--pretty-print'].map((n) => [
        n,
        run('writes a file')
      ])
    ),
    '-D': run('reads debugger commands'),
    '--debug': run('reads debugger commands')
  },
  more: (scan, argv) => {
    const given = valuesOf(scan, ['-e', '--source'])
    const sandboxed = scan.options.some((o) => o.name === '--sandbox')
    if (given.length === 0 && has(scan, ['-f', '--file', '-E', '--exec'])) return []
    const programs = given.length > 0 ? given : argv[scan.end] ? [argv[scan.end] as Token] : []
    return programs.flatMap((program) => {
      if (!program.known) return [unknownProgram(program)]
      const why = sandboxed ? null : awkDanger(program.text)
      return why ? [{ option: short(program.text), why }] : []
    })
  },
  summary:
    'a program that calls `system()`, reads a command with `| getline`, or sends `print` to a file or a command, and `-f` (a program file)'
}

/** What in an awk program runs a command or writes a file, or null. */
export function awkDanger(program: string): string | null {
  if (/\bsystem\s*\(/.test(program)) return 'calls system(), which runs a shell command'
  if (/\|\s*&?\s*getline\b|\|&/.test(program)) {
    return 'reads the output of a command with `| getline`'
  }
  if (/@\s*[A-Za-z_]/.test(program)) {
    return 'loads code or calls a function by its name (`@load`, `@include`, `@f()`)'
  }
  if (/\/inet\d?\//.test(program)) return 'opens a network connection'
  for (const match of program.matchAll(/\bprintf?\b/g)) {
    const rest = program.slice(match.index)
    const statement = rest.slice(0, rest.includes('\n') ? rest.indexOf('\n') : undefined)
    const cleaned = statement.replace(/>\s*"\/dev\/std(out|err)"/g, '').replace(/\|\|/g, '')
    if (/[>|]/.test(cleaned)) return 'sends `print` output to a file or a command (`>`, `|`)'
  }
  return null
}

const SED: Knowledge = {
  spec: {
    flags: 'nrEsuzb',
    valued: 'efl',
    optional: 'i',
    long: {
      expression: 'value',
      file: 'value',
      'in-place': 'optional',
      'line-length': 'value',
      quiet: 'flag',
      silent: 'flag',
      'regexp-extended': 'flag',
      separate: 'flag',
      unbuffered: 'flag',
      'null-data': 'flag',
      posix: 'flag',
      debug: 'flag',
      sandbox: 'flag',
      'follow-symlinks': 'flag'
    },
    abbreviations: true
  },
  danger: { '-f': PROGRAM_FILE, '--file': PROGRAM_FILE },
  more: (scan) => {
    const findings: OptionFinding[] = []
    const given = valuesOf(scan, ['-e', '--expression'])
    const fromFile = has(scan, ['-f', '--file'])
    const operands = scan.operands.map((o) => o.token)
    const scripts = given.length > 0 || fromFile ? given : operands.slice(0, 1)
    const files = given.length > 0 || fromFile ? operands : operands.slice(1)
    const inPlace = scan.options.find((o) => o.name === '-i' || o.name === '--in-place')
    if (inPlace) {
      for (const file of files) {
        findings.push(
          file.known
            ? {
                option: `${inPlace.written} ${file.text}`,
                why: 'edits the file in place',
                writes: file
              }
            : {
                option: inPlace.written,
                why: 'edits in place a file only known when the line runs'
              }
        )
      }
    }
    if (has(scan, ['--sandbox'])) return findings
    for (const script of scripts) {
      if (!script.known) {
        findings.push(unknownProgram(script))
        continue
      }
      const read = readSedScript(script.text)
      const shown = short(script.text)
      if (read.unreadable)
        findings.push({ option: shown, why: `cannot be read (${read.unreadable})` })
      for (const command of read.runs) {
        findings.push({ option: command, why: 'runs a shell command' })
      }
      for (const file of read.writes) {
        findings.push({
          option: `w ${file}`,
          why: 'writes a file',
          writes: { known: true, text: file }
        })
      }
    }
    return findings
  },
  summary:
    'its `e` command and `s///e` (they run commands), `w` (it writes files) and `-i` (it edits files in place)'
}

/** An interpreter whose code the judge does not read: `code` are its options that carry code. */
function interpreter(
  spec: Knowledge['spec'],
  code: string[],
  others: Record<string, string>,
  language: string
): Knowledge {
  const danger: Knowledge['danger'] = {}
  for (const name of code) danger[name] = run(`runs the ${language} code it is given`)
  for (const [name, why] of Object.entries(others)) danger[name] = run(why)
  return {
    spec: {
      ...spec,
      long: { version: 'flag', help: 'flag', ...spec.long },
      stopAtOperand: true
    },
    danger,
    more: (scan, argv) => {
      const informational = scan.options.some((o) => /^(-[vVh]|--version|--help)$/.test(o.name))
      const script = argv[scan.end]
      if (
        informational ||
        has(scan, code) ||
        // a module to run (`python -m pytest`), or node's own runners (`--test`, `--run`)
        has(scan, ['-m', '--test', '--run']) ||
        (script && textOf(script) !== '-')
      ) {
        return []
      }
      const option = textOf(script) || textOf(argv[0])
      return [{ option, why: 'reads its program from standard input' }]
    },
    summary: `code given on the line (${code.join(', ')}), modules loaded before the program, and a program read from standard input`
  }
}

export const interpreters: Record<string, Knowledge> = {
  awk: AWK,
  sed: SED,
  perl: interpreter(
    { flags: 'nLpaswWXTtcUuvhSNf', valued: 'eE', optional: 'iIMmdxlF0CD' },
    ['-e', '-E'],
    {
      '-i': IN_PLACE,
      '-I': LOADS,
      '-M': LOADS,
      '-m': LOADS,
      '-d': LOADS,
      '-x': 'reads a program embedded in another file'
    },
    'Perl'
  ),
  python: interpreter(
    { flags: 'bBdEhIOPqsSuvVx', valued: 'cmWX', optional: 'i' },
    ['-c'],
    { '-i': STDIN },
    'Python'
  ),
  node: interpreter(
    {
      flags: 'hvi',
      valued: 'epr',
      long: {
        eval: 'value',
        print: 'value',
        require: 'value',
        import: 'value',
        loader: 'value',
        'experimental-loader': 'value',
        'env-file': 'value',
        interactive: 'flag',
        test: 'flag',
        run: 'value',
        version: 'flag',
        help: 'flag'
      }
    },
    ['-e', '--eval', '-p', '--print'],
    {
      ...Object.fromEntries(
        ['-r', '--require', '--import', '--loader', '--experimental-loader'].map((n) => [n, LOADS])
      ),
      '--env-file': 'reads variables such as NODE_OPTIONS from a file',
      '-i': STDIN,
      '--interactive': STDIN
    },
    'JavaScript'
  ),
  ruby: interpreter(
    { flags: 'acdhlnpsvwy', valued: 'erICEF', optional: 'ixTW0' },
    ['-e'],
    { '-r': LOADS, '-I': LOADS, '-i': IN_PLACE, '-x': 'reads a program embedded in another file' },
    'Ruby'
  )
}

function valuesOf(scan: Scan, names: string[]): Token[] {
  return scan.options.flatMap((o: FoundOption) =>
    names.includes(o.name) && o.value ? [o.value] : []
  )
}

function has(scan: Scan, names: string[]): boolean {
  return scan.options.some((o) => names.includes(o.name))
}

function unknownProgram(program: Token): OptionFinding {
  return {
    option: program.known ? program.text : program.source,
    why: 'is a program only known when the line runs'
  }
}

function short(text: string): string {
  const line = text.split('\n')[0] ?? ''
  return line.length > 40 ? `${line.slice(0, 39)}…` : line
}

function textOf(token: Token | undefined): string {
  return token?.known ? token.text : ''
}
