import { constants, type Stats } from 'node:fs'
import { lstat, open, readlink, stat, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import YAML, { isMap, isScalar, LineCounter, type Document } from 'yaml'
import type { z } from 'zod'
import { describeIssues, type SettingsIssue } from '../../shared/settings-issues'

/** A settings file is a page of YAML; anything this large is a mistake or an attack. */
export const SETTINGS_MAX_BYTES = 1024 * 1024
/** How often one alias may be expanded: past this, a "billion laughs" file, refused. */
const MAX_ALIASES = 100

/** What reading a settings file found. */
export type SettingsFileRead<T> =
  | { kind: 'missing' }
  /** `raw` is what the file holds as far as it parsed (for the settings screen to show). */
  | { kind: 'invalid'; raw: unknown; issues: SettingsIssue[] }
  | { kind: 'valid'; raw: unknown; value: T; text: string }

/** Further checks once the schema passes (a rule's own examples); issues carry `segments`. */
export type SettingsCheck<T> = (value: T) => Promise<SettingsIssue[]>

/**
 * Reads, parses and validates one settings file. Nothing here throws for a bad file: a size over
 * the limit, a read error, YAML that does not parse, an alias bomb, a schema failure or a failed
 * check all come back as issues with the line and column they are at, where the text shows it.
 */
export async function readSettingsFile<T>(
  file: string,
  schema: z.ZodType<T>,
  check?: SettingsCheck<T>
): Promise<SettingsFileRead<T>> {
  const name = path.basename(file)
  const whole = (message: string): SettingsFileRead<T> => ({
    kind: 'invalid',
    raw: {},
    issues: [{ path: '(file)', message }]
  })
  const opened = await openSettingsFile(file)
  if (opened.kind === 'missing') return opened
  if (opened.kind === 'unusable') return whole(opened.reason)
  const { handle, size } = opened
  let text: string
  try {
    if (size > SETTINGS_MAX_BYTES) {
      return whole(
        `${name} is ${formatBytes(size)}; a settings file may be at most ${formatBytes(SETTINGS_MAX_BYTES)}, so it was not read`
      )
    }
    text = await handle.readFile('utf8')
  } catch (error) {
    return whole(`cannot read ${file}: ${describe(error)}`)
  } finally {
    await handle.close()
  }
  return parseSettingsText(text, name, schema, check)
}

/** A settings path opened for reading, or why it cannot be (see openSettingsFile). */
export type OpenedSettingsFile =
  | { kind: 'missing' }
  | { kind: 'unusable'; reason: string }
  | { kind: 'open'; handle: FileHandle; size: number }

// Opening a FIFO for reading waits for a writer, forever if none comes; with O_NONBLOCK it
// returns at once, and the descriptor's own stat then shows what was opened. (No such flag on
// Windows, where a named pipe is not a path in a folder anyway.)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

/**
 * Opens a settings file, never waiting: nothing there is `missing` (the defaults, a first
 * start), but a path that is there and cannot be read as a file is `unusable`, with the reason,
 * so a command stops on it rather than running on the defaults or hanging: a link to nothing, a
 * folder, a FIFO, a socket or a device, a file that cannot be opened. A link to a file is read.
 */
export async function openSettingsFile(file: string): Promise<OpenedSettingsFile> {
  const unusable = (reason: string): OpenedSettingsFile => ({ kind: 'unusable', reason })
  const name = path.basename(file)
  let stats: Stats
  try {
    stats = await lstat(file)
  } catch (error) {
    if (errno(error) === 'ENOENT') return { kind: 'missing' }
    return unusable(`cannot read ${file}: ${describe(error)}`)
  }
  if (stats.isSymbolicLink()) {
    try {
      stats = await stat(file)
    } catch (error) {
      const target = await readlink(file).catch(() => '?')
      if (errno(error) === 'ENOENT') {
        return unusable(
          `${name} is a link to ${target}, which does not exist; point the link at your settings file, or remove it to start from the defaults`
        )
      }
      return unusable(`${name} is a link to ${target}, which cannot be read: ${describe(error)}`)
    }
  }
  const kind = notAFile(stats)
  if (kind)
    return unusable(
      `${name} is ${kind}, not a settings file; settings are read only from a regular file`
    )
  let handle: FileHandle
  try {
    handle = await open(file, OPEN_FLAGS)
  } catch (error) {
    if (errno(error) === 'ENOENT') return { kind: 'missing' }
    return unusable(`cannot read ${file}: ${describe(error)}`)
  }
  // What was opened may not be what was looked at a moment before.
  const opened = await handle.stat().catch(() => null)
  const openedKind = opened ? notAFile(opened) : 'something that cannot be examined'
  if (!opened || openedKind) {
    await handle.close()
    return unusable(
      `${name} is ${openedKind}, not a settings file; settings are read only from a regular file`
    )
  }
  return { kind: 'open', handle, size: opened.size }
}

/** What `stats` describes when it is not a regular file, in words; null when it is one. */
function notAFile(stats: Stats): string | null {
  if (stats.isFile()) return null
  if (stats.isDirectory()) return 'a folder'
  if (stats.isFIFO()) return 'a FIFO (a named pipe)'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'not a regular file'
}

/** The same checks for text already read (a file's content). */
export async function parseSettingsText<T>(
  text: string,
  name: string,
  schema: z.ZodType<T>,
  check?: SettingsCheck<T>
): Promise<SettingsFileRead<T>> {
  const lines = new LineCounter()
  const document = YAML.parseDocument(text, { prettyErrors: true, lineCounter: lines })
  if (document.errors.length > 0) {
    const issues = document.errors.map((error) => ({
      path: '(file)',
      // The position is given as line and column; the library repeats it (and a code excerpt).
      message: `not valid YAML: ${(error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`,
      ...(error.linePos?.[0] ? { line: error.linePos[0].line, column: error.linePos[0].col } : {})
    }))
    return { kind: 'invalid', raw: {}, issues }
  }
  let raw: unknown
  try {
    raw = document.toJS({ maxAliasCount: MAX_ALIASES }) ?? {}
  } catch (error) {
    const message =
      error instanceof ReferenceError && /alias/i.test(error.message)
        ? `${name} expands its YAML aliases (*name) too many times, the shape of a "billion laughs" attack; write the values out instead of repeating aliases`
        : `${name} could not be read as settings: ${describe(error)}`
    return { kind: 'invalid', raw: {}, issues: [{ path: '(file)', message }] }
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    return {
      kind: 'invalid',
      raw,
      issues: locate(describeIssues(parsed.error, schema), document, lines)
    }
  }
  const checked = check ? await check(parsed.data) : []
  if (checked.length > 0) return { kind: 'invalid', raw, issues: locate(checked, document, lines) }
  return { kind: 'valid', raw, value: parsed.data, text }
}

/** Adds the line and column of each issue's setting, or of the nearest part of it in the file. */
function locate(issues: SettingsIssue[], document: Document, lines: LineCounter): SettingsIssue[] {
  const located = issues.map((issue) => {
    const offset = issue.segments ? offsetOf(document, issue.segments) : null
    if (offset === null) return issue
    const { line, col } = lines.linePos(offset)
    return { ...issue, line, column: col }
  })
  // In the order a person reads the file.
  const order = (issue: SettingsIssue): number =>
    (issue.line ?? Infinity) * 1e6 + (issue.column ?? 0)
  return located.sort((a, b) => order(a) - order(b))
}

function offsetOf(document: Document, segments: readonly (string | number)[]): number | null {
  for (let depth = segments.length; depth >= 0; depth--) {
    const parent =
      depth === 0 ? document.contents : document.getIn(segments.slice(0, depth - 1), true)
    const last = segments[depth - 1]
    // A key of a mapping: point at the key itself (an unknown key has no value worth pointing at).
    if (depth > 0 && isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === last)
      const range = pair && isScalar(pair.key) ? pair.key.range : null
      if (range) return range[0]
    }
    const node = depth === 0 ? document.contents : document.getIn(segments.slice(0, depth), true)
    const range = (node as { range?: [number, number, number] } | null)?.range
    if (range) return range[0]
  }
  return null
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
  return `${Math.ceil(bytes / 1024)} KiB`
}

/** Issues as a person reads them in a terminal: `settings.yaml:12:3 shell.enabld: …`. */
export function formatIssues(file: string, issues: readonly SettingsIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.line ? `${file}:${issue.line}:${issue.column ?? 1}` : file
      const what = issue.path === '(file)' ? '' : ` ${issue.path}:`
      return `  ${where}${what} ${issue.message}`
    })
    .join('\n')
}
