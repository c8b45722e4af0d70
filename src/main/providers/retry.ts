import { ProviderStreamError } from './stream-guard'

export { retryLine } from '../../shared/retry-line'

/** Retries a failed request gets unless the settings say (`provider_max_retries`). */
export const DEFAULT_MAX_RETRIES = 4

/** The longest wait a provider's `retry-after` may ask for; a longer one ends the turn instead. */
export const MAX_RETRY_AFTER_MS = 120_000

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts (the person's Stop). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>

/** How a failed request is retried. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number
  /** The first backoff; each later one doubles, up to `capMs`. */
  baseMs?: number
  capMs?: number
  /** Injectable so a test can see the waits asked for without waiting on a clock. */
  sleep?: Sleep
  /** In [0, 1): the jitter of a backoff. */
  random?: () => number
}

/** A wait before the next attempt, as the window and the CLI show it. */
export interface RetryWait {
  /** The attempt about to be made after the wait: 2 for the first retry. */
  attempt: number
  maxRetries: number
  waitMs: number
  /** What went wrong, in a few words: "rate limited", "overloaded", "server error 503"… */
  reason: string
  error: unknown
}

/** A request that kept failing after the retries the settings allow, said so a person can act. */
export class RetriesExhaustedError extends Error {
  constructor(
    readonly last: unknown,
    message: string
  ) {
    super(message, { cause: last })
    this.name = 'RetriesExhaustedError'
  }
}

/** Why an error is worth another attempt, and how long the provider asked to wait (if it did). */
export interface RetryCause {
  reason: string
  retryAfterMs: number | null
}

/**
 * Whether a failed request may be tried again: 429, 408, 5xx (529 is Anthropic's "overloaded"),
 * an overloaded error event in the stream, or a connection that dropped; never when the provider
 * said `x-should-retry: false`. A refused key, a wrong
 * URL, a stalled stream or a server that is not running are not: trying again would not help,
 * or would only make the person wait longer for the same sentence.
 */
export function retryCause(error: unknown): RetryCause | null {
  if (error instanceof ProviderStreamError) {
    return error.kind === 'dropped' ? { reason: 'connection dropped', retryAfterMs: null } : null
  }
  if (!(error instanceof Error)) return null
  const status = (error as { status?: unknown }).status
  const headers = (error as { headers?: unknown }).headers
  // The provider's own word wins: both APIs send `x-should-retry` (as the SDKs honour it).
  if (header(headers, 'x-should-retry') === 'false') return null
  const retryAfterMs = retryAfter(headers)
  if (status === 429) return { reason: 'rate limited', retryAfterMs }
  if (status === 529 || isOverloaded(error)) return { reason: 'overloaded', retryAfterMs }
  if (status === 408) return { reason: 'request timed out', retryAfterMs }
  if (typeof status === 'number' && status >= 500 && status <= 599) {
    return { reason: `server error ${status}`, retryAfterMs }
  }
  return null
}

/**
 * Runs `attempt` until it succeeds, fails in a way retrying cannot help, the retries run out, or
 * `signal` aborts (then it rejects with the signal's reason, at once, even mid-wait). `onWait` is
 * told before every wait. A 429's `retry-after` is waited exactly; other waits are a jittered
 * exponential backoff, so many clients that failed together do not come back together.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<T>,
  signal: AbortSignal,
  policy: RetryPolicy,
  onWait: (wait: RetryWait) => void
): Promise<T> {
  const sleep = policy.sleep ?? abortableSleep
  const random = policy.random ?? Math.random
  for (let n = 1; ; n++) {
    try {
      return await attempt(n)
    } catch (error) {
      if (signal.aborted) throw error
      const cause = retryCause(error)
      if (cause === null) throw error
      const retries = n - 1
      if (retries >= policy.maxRetries) throw exhausted(error, cause, n, policy.maxRetries)
      if (cause.retryAfterMs !== null && cause.retryAfterMs > MAX_RETRY_AFTER_MS) {
        throw new RetriesExhaustedError(
          error,
          `${messageOf(error)} (the provider asked to wait ${seconds(cause.retryAfterMs)} s before trying again, longer than Mecatl waits, ${seconds(MAX_RETRY_AFTER_MS)} s; press Retry (or send the message again) later)`
        )
      }
      const waitMs = cause.retryAfterMs ?? backoff(retries, policy, random)
      onWait({ attempt: n + 1, maxRetries: policy.maxRetries, waitMs, reason: cause.reason, error })
      await sleep(waitMs, signal)
    }
  }
}

/** A timer that stops with the signal (the person's Stop, or the end of the process). */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    // Not unref'd: in `mecatl run` this wait is all that keeps the process alive until the retry.
    signal.addEventListener('abort', onAbort, { once: true })
  })

function backoff(retries: number, policy: RetryPolicy, random: () => number): number {
  const base = policy.baseMs ?? 1000
  const cap = policy.capMs ?? 30_000
  const full = Math.min(cap, base * 2 ** retries)
  // Half fixed, half random: never a retry storm at once, never a wait much shorter than meant.
  return Math.round(full / 2 + (full / 2) * random())
}

function exhausted(error: unknown, cause: RetryCause, tries: number, max: number): Error {
  if (max === 0) return error instanceof Error ? error : new Error(String(error))
  return new RetriesExhaustedError(
    error,
    `${messageOf(error)} (${cause.reason}: tried ${tries} times, the first and ${max} ${max === 1 ? 'retry' : 'retries'}; press Retry (or send the message again) to try once more, or raise provider_max_retries in Settings)`
  )
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date; null when neither says. */
function retryAfter(headers: unknown): number | null {
  const ms = numberOf(header(headers, 'retry-after-ms'))
  if (ms !== null) return ms
  const value = header(headers, 'retry-after')
  const secs = numberOf(value)
  if (secs !== null) return secs * 1000
  const date = value === null ? NaN : Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now())
}

/** A header's non-negative number, or null for none, an empty one or words. */
function numberOf(value: string | null): number | null {
  if (value === null || value.trim() === '') return null
  const n = Number(value)
  return Number.isFinite(n) && n >= 0 ? n : null
}

function header(headers: unknown, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name)
  if (typeof headers === 'object' && headers !== null) {
    const value = (headers as Record<string, unknown>)[name]
    return typeof value === 'string' ? value : null
  }
  return null
}

function isOverloaded(error: Error): boolean {
  const body = (error as { error?: unknown }).error
  const type = (value: unknown): unknown =>
    typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined
  const inner =
    typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : null
  return type(body) === 'overloaded_error' || type(inner) === 'overloaded_error'
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function seconds(ms: number): number {
  return Number((ms / 1000).toFixed(1))
}
