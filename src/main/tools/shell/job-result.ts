import { formatSpan, type Job } from '../../jobs/job'
import { orphanUtf8Head, plainText } from '../../jobs/terminal-text'
import type { ToolOutput } from '../tool'
import { groupedDigits } from '../../../shared/grouped-digits'

/** The most of a command's output the model is shown: its end, where errors and summaries are. */
export const MODEL_OUTPUT_CHARS = 30_000
/** How much of a running job's output ShellStatus shows. */
export const RUNNING_TAIL_CHARS = 4_000

/** The last `maxChars` characters of a job's output as plain text, with a note on what is left out. */
export function outputTail(job: Job, maxChars: number): { text: string; note: string | null } {
  const bytes = job.ring.tail()
  const skip = job.ring.droppedBytes > 0 ? orphanUtf8Head(bytes) : 0
  const text = plainText(bytes.toString('utf8', skip)).replace(/\n+$/, '')
  const hiddenBytes = job.ring.droppedBytes + skip
  if (text.length <= maxChars) {
    return {
      text,
      note:
        hiddenBytes > 0
          ? `(The first ${formatBytes(hiddenBytes)} of output were not kept; this is the rest.)`
          : null
    }
  }
  // Start at a line when one begins near the cut, so the first line shown is whole.
  let cut = text.length - maxChars
  const newline = text.indexOf('\n', cut)
  if (newline !== -1 && newline - cut < 200) cut = newline + 1
  const shownChars = text.length - cut
  const before = hiddenBytes > 0 ? ` and ${formatBytes(hiddenBytes)} before them` : ''
  return {
    text: text.slice(cut),
    note: `(Showing the last ${groupedDigits(shownChars)} characters; ${groupedDigits(cut)} characters${before} are not shown.)`
  }
}

/** One sentence on how the job ended, or that it still runs. */
export function statusLine(job: Job): string {
  switch (job.state) {
    case 'running':
      return `${job.id} is still running (for ${formatSpan(job.elapsedMs)}).`
    case 'done':
      return `Exit code 0 (after ${formatSpan(job.elapsedMs)}).`
    case 'failed':
      return job.exitCode === null
        ? `The command was ${job.stopReason ?? 'killed'} (after ${formatSpan(job.elapsedMs)}).`
        : `The command failed with exit code ${job.exitCode} (after ${formatSpan(job.elapsedMs)}).`
    case 'timed-out':
      return (
        `The command ${job.stopReason ?? 'timed out'} and was stopped, with everything it started. ` +
        'Give it a longer timeout_ms, or run it with background: true and follow it with ShellStatus.'
      )
    case 'stopped':
      return job.stopReason === 'stopped by the person'
        ? `The person stopped the command after ${formatSpan(job.elapsedMs)}.`
        : `The command was ${job.stopReason ?? 'stopped'} after ${formatSpan(job.elapsedMs)}.`
  }
}

/**
 * A finished job as the model reads it: how it ended first (so a cut of a long result keeps it),
 * then its output. Anything but exit code 0 is an error result.
 */
export function jobResult(job: Job, heading?: string): ToolOutput {
  const { text, note } = outputTail(job, MODEL_OUTPUT_CHARS)
  const parts = [heading, statusLine(job), note, text === '' ? '(no output)' : text]
  return {
    content: [{ type: 'text', text: parts.filter((part) => part).join('\n\n') }],
    isError: job.state !== 'done',
    external: false
  }
}

/** "512 bytes", "12.3 KB", "4.0 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
