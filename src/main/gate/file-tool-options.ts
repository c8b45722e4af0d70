import { run, write, type Knowledge } from './option-knowledge'

// Searching, sorting, archiving and copying a stream: what a rule for `find`, `rg`, `sort`, `zip`
// or `tee` does not cover (see program-options.ts). `tee` writes every file it names, which is a
// redirection by another name, so each is judged as one.
const FIND_VALUED = [
  'name', 'iname', 'path', 'ipath', 'wholename', 'iwholename', 'regex', 'iregex', 'lname',
  'ilname', 'type', 'xtype', 'newer', 'anewer', 'cnewer', 'newermt', 'newerct', 'newerat',
  'size', 'perm', 'user', 'group', 'uid', 'gid', 'mtime', 'mmin', 'atime', 'amin', 'ctime',
  'cmin', 'maxdepth', 'mindepth', 'links', 'inum', 'samefile', 'used', 'fstype', 'context',
  'regextype', 'printf', 'fprint', 'fprint0', 'fprintf', 'fls', 'files0-from'
] // prettier-ignore

const FIND_RUNS = ['exec', 'execdir', 'ok', 'okdir', 'delete']

export const FILE_TOOLS: Record<string, Knowledge> = {
  find: {
    spec: {
      singleDashLong: true,
      flags: 'HLP',
      valued: 'DO',
      long: {
        ...Object.fromEntries(FIND_VALUED.map((n) => [n, 'value' as const])),
        ...Object.fromEntries(FIND_RUNS.map((n) => [n, 'flag' as const]))
      }
    },
    danger: {
      '--exec': run('runs a command on each file it finds'),
      '--execdir': run('runs a command on each file it finds'),
      '--ok': run('runs a command on each file it finds'),
      '--okdir': run('runs a command on each file it finds'),
      '--delete': run('deletes the files it finds'),
      '--fprint': write('writes the list of files it finds to a file'),
      '--fprint0': write('writes the list of files it finds to a file'),
      '--fprintf': write('writes the list of files it finds to a file'),
      '--fls': write('writes the list of files it finds to a file')
    },
    summary:
      '`-exec`, `-execdir`, `-ok` and `-okdir` (they run other commands), `-delete`, and `-fprint`, `-fprintf`, `-fls` (they write files)'
  },
  rg: {
    spec: {
      valued: 'efgtTmABCjMEdr',
      long: Object.fromEntries(
        ['regexp', 'file', 'glob', 'iglob', 'type', 'type-not', 'type-add', 'max-count',
         'after-context', 'before-context', 'context', 'threads', 'max-columns', 'encoding',
         'max-depth', 'replace', 'pre', 'pre-glob', 'hostname-bin', 'sort', 'sortr', 'colors',
         'color', 'path-separator', 'max-filesize', 'ignore-file', 'engine', 'generate',
         'hyperlink-format', 'context-separator', 'field-match-separator',
         'field-context-separator', 'dfa-size-limit', 'regex-size-limit'
        ].map((n) => [n, 'value' as const]) // prettier-ignore
      )
    },
    danger: {
      '--pre': run('runs a program on every file it searches'),
      '--hostname-bin': run('runs a program to learn the host name')
    },
    summary: '`--pre` and `--hostname-bin` (they run other programs)'
  },
  sort: {
    spec: {
      valued: 'kStoT',
      long: {
        key: 'value',
        'field-separator': 'value',
        output: 'value',
        'temporary-directory': 'value',
        'buffer-size': 'value',
        'compress-program': 'value',
        parallel: 'value',
        'batch-size': 'value',
        'files0-from': 'value',
        'random-source': 'value'
      },
      abbreviations: true
    },
    danger: {
      '-o': write('writes its output to a file'),
      '--output': write('writes its output to a file'),
      '--compress-program': run('runs a program to compress its temporary files'),
      '-T': run('writes temporary files into a folder the line names'),
      '--temporary-directory': run('writes temporary files into a folder the line names')
    },
    summary: '`--compress-program` (it runs a program), `-o` and `-T` (they write files)'
  },
  zip: {
    spec: {
      flags: 'T',
      valued: 'Ob',
      long: { 'unzip-command': 'value', 'output-file': 'value', test: 'flag' },
      abbreviations: true
    },
    danger: {
      '-T': run('tests the archive by running unzip, or the command `-TT` names'),
      '--test': run('tests the archive by running unzip, or the command `-TT` names'),
      '--unzip-command': run('runs the command it names to test the archive'),
      '-O': write('writes the archive to another file'),
      '--output-file': write('writes the archive to another file')
    },
    summary: '`-T`/`-TT` (they run programs) and `-O` (it writes another file)'
  },
  tee: {
    spec: {
      flags: 'aip',
      long: { append: 'flag', 'ignore-interrupts': 'flag', 'output-error': 'optional' },
      abbreviations: true
    },
    danger: {},
    // A name only known when the line runs is asked about as an unknown word already.
    more: (scan) =>
      scan.operands.flatMap(({ token }) =>
        token.known ? [{ option: token.text, why: 'is a file it writes', writes: token }] : []
      ),
    summary: 'the files it writes, each judged as a redirection would be'
  }
}
