import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { createFileSearcher, type LineRecord, type SearchSpec } from './file-searcher'

const searcher = createFileSearcher()

/** ripgrep refused the pattern (its regex syntax differs from JavaScript's in places). */
export class RipgrepPatternError extends Error {}

/** The flags that say what to match and what to print; both of ripgrep's runs take them. */
export function matchArgs(spec: SearchSpec): string[] {
  // --no-mmap: a memory-mapped file is only checked for NUL bytes near its start, so a binary
  // file named by `path` could be searched as text.
  const args = ['--json', '--no-config', '--no-mmap', '--encoding', 'none']
  if (spec.literal) args.push('--fixed-strings')
  if (spec.ignoreCase) args.push('--ignore-case')
  if (spec.context > 0) args.push('--context', String(spec.context))
  return args
}

/** ripgrep exited with an error before printing anything, and says the pattern is why. */
export function patternRefused(run: RgRun): boolean {
  return (
    run.code === 2 && !run.sawOutput && /regex parse error|error parsing|regex/i.test(run.stderr)
  )
}

/** A path or a line as `rg --json` gives it: text when it is UTF-8, base64 bytes otherwise. */
export interface RgText {
  text?: string
  bytes?: string
}

export interface RgLine {
  path: RgText
  lines: RgText
  line_number: number
  submatches?: { start: number; end: number }[]
}

/** The messages of `rg --json` that are read here. */
export type RgMessage =
  | { type: 'begin'; data: { path: RgText } }
  | { type: 'match' | 'context'; data: RgLine }
  | { type: 'end'; data: { path: RgText; binary_offset: number | null } }
  | { type: 'summary'; data: { stats: { bytes_searched: number; searches: number } } }

/** How one run of ripgrep ended. */
export interface RgRun {
  code: number | null
  /** The start of what it wrote to stderr. */
  stderr: string
  /** Whether it printed anything on stdout. */
  sawOutput: boolean
}

export interface RgRunOptions {
  cwd: string
  /** Descriptors handed to ripgrep as its fds 3, 4, …; it reads them as `/dev/fd/3`, …. */
  fds?: readonly number[]
  signal: AbortSignal
}

/**
 * Runs `rg` with `--json` among `args` and hands each message to `onMessage`; returning false
 * stops ripgrep (the messages it had already written are not passed on). ripgrep is started
 * before this returns, so descriptors handed to it may be closed as soon as it has.
 */
export async function runRipgrep(
  rg: string,
  args: readonly string[],
  options: RgRunOptions,
  onMessage: (message: RgMessage) => boolean | void | Promise<boolean | void>
): Promise<RgRun> {
  const child = spawn(rg, args, {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe', ...(options.fds ?? [])],
    env: { ...process.env, RIPGREP_CONFIG_PATH: '' }
  })
  const closed = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve(code))
  })
  // Awaited once the output is read; when handling a message throws first, it never is.
  closed.catch(() => undefined)
  // Piped above; typed as maybe absent because the descriptors handed over vary in number.
  const { stdout, stderr: errors } = child as { stdout: Readable; stderr: Readable }
  let stderr = ''
  errors.setEncoding('utf8')
  errors.on('data', (chunk: string) => {
    if (stderr.length < 64 * 1024) stderr += chunk
  })
  const kill = (): void => {
    child.kill('SIGKILL')
  }
  options.signal.addEventListener('abort', kill)
  let sawOutput = false
  let stopped = false
  try {
    const lines = createInterface({ input: stdout, crlfDelay: Infinity })
    for await (const raw of lines) {
      if (stopped) continue
      sawOutput = true
      if ((await onMessage(JSON.parse(raw) as RgMessage)) === false) {
        stopped = true
        kill()
      }
    }
    return { code: await closed, stderr, sawOutput }
  } finally {
    options.signal.removeEventListener('abort', kill)
    if (child.exitCode === null) kill()
  }
}

/** A path or line's text (bytes that are not UTF-8 are decoded with replacement characters). */
export function decode(value: RgText): string {
  if (value.text !== undefined) return value.text
  return Buffer.from(value.bytes ?? '', 'base64').toString('utf8')
}

/** One line of ripgrep's output as the Node engine records it: cut the same way, UTF-16 ranges. */
export function toRecord(data: RgLine, match: boolean, maxLineChars: number): LineRecord {
  const bytes =
    data.lines.text !== undefined
      ? Buffer.from(data.lines.text, 'utf8')
      : Buffer.from(data.lines.bytes ?? '', 'base64')
  const end = bytes.at(-1) === 10 ? bytes.length - 1 : bytes.length
  const line = bytes.subarray(0, end)
  const text = line.toString('utf8')
  const ascii = text.length === line.length
  // ripgrep counts bytes; the window and the Node engine count UTF-16 units.
  const unit = (offset: number): number =>
    ascii ? offset : line.subarray(0, offset).toString('utf8').length
  const ranges: [number, number][] = (data.submatches ?? [])
    .filter((m) => m.end > m.start)
    .map((m) => [unit(m.start), unit(m.end)])
  const clipped = searcher.clipLine(text, ranges, maxLineChars)
  return { line: data.line_number, text: clipped.text, ranges: clipped.ranges, match }
}
