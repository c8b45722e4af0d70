import { z } from 'zod'
import { formatSpan } from '../jobs/job'
import { errorOutput, textOutput, type ToolOutput } from './tool'

// What the status tools (ShellStatus, SubagentStatus) share: each looks after the background
// work of the session, lists it with no id, shows, waits for or stops the one an id names.

/** The longest one status call waits for what it looks at. */
export const MAX_WAIT_MS = 10 * 60_000

/** How a status tool's messages name it and what it looks after. */
export interface StatusWords {
  /** The tool: `ShellStatus`. */
  readonly tool: string
  /** One of what it lists: `background job`. */
  readonly noun: string
  /** Its id argument, with an article: `a job_id`. */
  readonly id: string
  /** Them all: `the jobs`. */
  readonly all: string
}

/** A status tool's id input: left out, the tool lists what it looks after. */
export function statusId(
  pattern: RegExp,
  looksLike: string,
  describe: string
): z.ZodOptional<z.ZodString> {
  return z.string().regex(pattern, looksLike).optional().describe(describe)
}

/** The inputs of a status tool beside its id: how long to wait for the work, and stopping it. */
export function statusControls(
  waitFor: string,
  cancel: string
): { wait_ms: z.ZodOptional<z.ZodNumber>; cancel: z.ZodDefault<z.ZodBoolean> } {
  return {
    wait_ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_MS)
      .optional()
      .describe(
        `Wait up to this many milliseconds for ${waitFor} to finish (at most ${MAX_WAIT_MS}).`
      ),
    cancel: z.boolean().default(false).describe(cancel)
  }
}

/**
 * The start of a status call: with no id, the listing (wait_ms and cancel need an id); with one,
 * the item it names among `items`, the session's own, or why there is none. `output` when that
 * already answers the call.
 */
export function statusTarget<T extends { readonly id: string }>(
  items: readonly T[],
  id: string | undefined,
  input: { readonly wait_ms?: number; readonly cancel: boolean },
  words: StatusWords,
  line: (item: T) => string
): { target: T } | { output: ToolOutput } {
  if (!id) {
    if (input.wait_ms !== undefined || input.cancel) {
      return {
        output: errorOutput(
          `wait_ms and cancel need ${words.id}; call ${words.tool} with no arguments to list ${words.all}.`
        )
      }
    }
    return { output: statusListing(items, words.noun, line) }
  }
  const target = items.find((candidate) => candidate.id === id)
  if (target) return { target }
  return {
    output: errorOutput(
      `There is no ${words.noun} ${id} in this session; call ${words.tool} with no arguments to list them.`
    )
  }
}

/** What a status call that waited adds when the work is still running. */
export function notFinishedWithin(waitedMs: number | null): string {
  return waitedMs === null ? '' : ` It did not finish within the ${formatSpan(waitedMs)} waited.`
}

/** The session's background work, one line each, or a sentence saying there is none. */
function statusListing<T>(
  items: readonly T[],
  noun: string,
  line: (item: T) => string
): ToolOutput {
  if (items.length === 0) return textOutput(`No ${noun}s in this session.`)
  return textOutput(
    [`${items.length} ${noun}${items.length === 1 ? '' : 's'} in this session:`]
      .concat(items.map(line))
      .join('\n')
  )
}
