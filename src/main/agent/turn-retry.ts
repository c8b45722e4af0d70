import { randomUUID } from 'node:crypto'
import type { TranscriptItem } from '../../shared/domain'
import type { StreamResult } from '../providers/provider'
import { DEFAULT_MAX_RETRIES, withRetries, type RetryPolicy } from '../providers/retry'

/** The streaming reply of a step, as the turn loop holds it; its fields change as it streams. */
export type StreamingItem = Extract<TranscriptItem, { kind: 'assistant' }>

/**
 * Streams one reply, trying again as providers/retry.ts allows. Before each wait the window (and
 * the CLI) is told, on the reply's item, how long and why; the next attempt clears it. When the
 * failed attempt had already shown text, that text stays as it was, marked interrupted, and the
 * retry streams into a reply of its own, so nothing shown is silently shown twice; `item` is
 * then that new reply (its id changes, which is why the caller must read `item.id` each delta).
 */
export function streamWithRetries(
  item: StreamingItem,
  policy: RetryPolicy | undefined,
  signal: AbortSignal,
  record: (item: TranscriptItem) => void,
  attempt: () => Promise<StreamResult>
): Promise<StreamResult> {
  return withRetries(
    (n) => {
      if (n > 1) record({ ...item })
      return attempt()
    },
    signal,
    policy ?? { maxRetries: DEFAULT_MAX_RETRIES },
    ({ waitMs, reason, attempt: next, maxRetries }) => {
      if (item.text !== '' || item.thinking !== undefined) {
        record({ ...item, streaming: false, interrupted: true })
        item.id = randomUUID()
        item.text = ''
        item.at = Date.now()
        delete item.thinking
      }
      const retry = { reason, waitMs, attempt: next, maxRetries }
      record({ ...item, retry })
    }
  )
}
