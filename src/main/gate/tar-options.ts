import { shown, type FoundOption, type Scan } from './option-scan'
import type { Knowledge, OptionFinding } from './option-knowledge'
import type { Token } from './shell-token'

// tar writes by its nature, so what matters is where: creating an archive writes the file `-f`
// names (judged like a redirection), while extracting writes whatever names the archive holds,
// `.git/hooks/…` or `../x` included, which nothing on the line says; listing (`t`) and extracting
// to standard output (`-O`) write nothing. Besides, several options run programs.

const VALUED = [
  'file', 'directory', 'files-from', 'exclude-from', 'use-compress-program', 'to-command',
  'checkpoint-action', 'info-script', 'new-volume-script', 'rsh-command', 'rmt-command',
  'index-file', 'listed-incremental', 'volno-file', 'exclude', 'transform', 'xform', 'format',
  'owner', 'group', 'mode', 'mtime', 'newer', 'after-date', 'newer-mtime', 'label',
  'blocking-factor', 'record-size', 'strip-components', 'suffix', 'tape-length',
  'starting-file', 'sort', 'warning', 'quoting-style', 'exclude-tag', 'owner-map', 'group-map',
  'level', 'pax-option', 'add-file'
] // prettier-ignore
const FLAGS = [
  'create', 'extract', 'get', 'list', 'append', 'update', 'catenate', 'concatenate', 'delete',
  'diff', 'compare', 'test-label', 'to-stdout', 'remove-files', 'force-local', 'verbose', 'gzip',
  'bzip2', 'xz', 'zstd', 'lzma', 'auto-compress', 'help', 'version', 'usage'
] // prettier-ignore
const WRITES_ARCHIVE = new Set(['-c', '-r', '-u', '-A', '--create', '--append', '--update', '--catenate', '--concatenate', '--delete']) // prettier-ignore
const EXTRACTS = new Set(['-x', '--extract', '--get'])
// Letters of tar's old style (`tar czf x.tgz dir`) that take the next words, in order.
const OLD_VALUED = 'fCTXbHIKLNgFV'

const run = (why: string): { why: string } => ({ why })

export const TAR: Knowledge = {
  spec: {
    // Letters tar takes alone; others it does not know are read as if they were such too.
    flags: 'AcdrtuxzjJZavkpOmlhWSGMBiPUw',
    valued: OLD_VALUED,
    long: {
      ...Object.fromEntries(VALUED.map((n) => [n, 'value' as const])),
      ...Object.fromEntries(FLAGS.map((n) => [n, 'flag' as const])),
      checkpoint: 'optional',
      backup: 'optional',
      'one-top-level': 'optional'
    },
    abbreviations: true
  },
  danger: {
    '-I': run('runs the program it names to compress or expand the archive'),
    '--use-compress-program': run('runs the program it names to compress or expand the archive'),
    '--to-command': run('runs a command for each file it extracts'),
    '-F': run('runs a script at the end of each volume'),
    '--info-script': run('runs a script at the end of each volume'),
    '--new-volume-script': run('runs a script at the end of each volume'),
    '--rsh-command': run('runs the program it names to reach a remote archive'),
    '--rmt-command': run('runs the program it names to reach a remote archive'),
    '--remove-files': run('deletes the files it adds to the archive'),
    '--index-file': { why: 'writes a listing to a file', writes: true },
    '-g': { why: 'writes a snapshot file', writes: true },
    '--listed-incremental': { why: 'writes a snapshot file', writes: true },
    '--volno-file': { why: 'writes a volume number file', writes: true }
  },
  more: (scan) => tarModes(scan),
  summary:
    '`-x` (it writes whatever names the archive holds), `-I`, `--to-command`, `--checkpoint-action=exec` (they run programs), and an archive `-f` names is a write'
}

/** `tar czf x.tgz dir` as the modern `tar -c -z -f x.tgz dir`, so one reading covers both. */
export function modernTar(argv: readonly Token[]): Token[] {
  const first = argv[1]
  if (!first?.known || first.text.startsWith('-') || !/^[A-Za-z]+$/.test(first.text)) {
    return [...argv]
  }
  const out: Token[] = [argv[0] as Token]
  let next = 2
  for (const letter of first.text) {
    out.push({ known: true, text: `-${letter}` })
    if (OLD_VALUED.includes(letter) && argv[next]) out.push(argv[next++] as Token)
  }
  return [...out, ...argv.slice(next)]
}

function tarModes(scan: Scan): OptionFinding[] {
  const findings: OptionFinding[] = []
  const has = (names: Set<string> | string[]): FoundOption | undefined =>
    scan.options.find((o) => (Array.isArray(names) ? names.includes(o.name) : names.has(o.name)))
  const file = [...scan.options].reverse().find((o) => o.name === '-f' || o.name === '--file')
  const local = has(['--force-local'])
  const extract = has(EXTRACTS)
  if (extract && !has(['-O', '--to-stdout'])) {
    findings.push({
      option: extract.written,
      why: 'extracts files under whatever names the archive holds, which could lead into .git or out of the folder'
    })
  }
  if (file?.value && !local && file.value.known && /^[^/]*:/.test(file.value.text)) {
    findings.push({ option: shown(file), why: 'names a remote archive, reached by running rsh' })
  } else if (has(WRITES_ARCHIVE) && file) {
    const value = file.value
    if (!value?.known) {
      findings.push({
        option: shown(file),
        why: 'writes an archive whose name is only known when the line runs'
      })
    } else if (value.text !== '-') {
      findings.push({ option: shown(file), why: 'writes the archive', writes: value })
    }
  }
  for (const option of scan.options) {
    if (option.name !== '--checkpoint-action') continue
    if (!option.value?.known || /exec|sleep/.test(option.value.text)) {
      findings.push({ option: shown(option), why: 'runs a command at each checkpoint' })
    }
  }
  return findings
}
