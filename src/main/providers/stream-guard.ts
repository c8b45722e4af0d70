import { withBody } from '../net/abortable-fetch'

/** How long a provider may send nothing before its reply is given up, unless the settings say. */
export const DEFAULT_IDLE_MS = 90_000

/** How a provider's stream broke: it went quiet, its connection dropped, or it was no stream. */
export type StreamBreak = 'idle' | 'dropped' | 'invalid'

/** A reply that could not be read to its end, said so a person knows what happened. */
export class ProviderStreamError extends Error {
  constructor(
    readonly kind: StreamBreak,
    message: string,
    cause?: unknown
  ) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'ProviderStreamError'
  }
}

/** Socket errors that mean the connection went away under a reply (undici and Node's names). */
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET'])

/**
 * One streamed request's guard. The SDKs get a signal of the request's own (linked to the
 * turn's, and unlinked when the request ends: an SDK leaves its abort listener on the signal it
 * is given, so giving it the turn's would pile one up per step) and a fetch that watches every
 * byte of the response, so a provider that sends nothing for `idleMs` (before its first byte
 * or in the middle of a reply) is given up then, rather than minutes later.
 */
export interface StreamGuard {
  readonly signal: AbortSignal
  readonly fetch: typeof fetch
  /** The error to report for what the SDK threw (or for a quiet end after the watchdog). */
  failure(error?: unknown): unknown
  /** Whether the watchdog stopped the request. */
  readonly stalled: boolean
  close(): void
}

/**
 * Opens the guard of one streamed request made within the turn whose signal is `turn`; `onSent`
 * is told as each request is handed to the network.
 */
export function guardStream(
  turn: AbortSignal,
  idleMs: number = DEFAULT_IDLE_MS,
  onSent?: () => void
): StreamGuard {
  const controller = new AbortController()
  const onTurn = (): void => controller.abort(turn.reason)
  turn.addEventListener('abort', onTurn, { once: true })
  if (turn.aborted) onTurn()
  let stalled: ProviderStreamError | null = null
  let timer: NodeJS.Timeout | null = null
  const disarm = (): void => {
    if (timer) clearTimeout(timer)
    timer = null
  }
  const arm = (): void => {
    if (timer) {
      timer.refresh()
      return
    }
    timer = setTimeout(() => {
      stalled = new ProviderStreamError('idle', idleMessage(idleMs))
      controller.abort(stalled)
    }, idleMs)
    // A watchdog must never be what keeps a finished process alive.
    timer.unref()
  }
  const watched: typeof fetch = async (input, init) => {
    arm()
    let response: Response
    try {
      // eslint-disable-next-line no-restricted-globals -- the watch pipe below carries the signal
      const sent = fetch(input, init)
      onSent?.()
      response = await sent
    } catch (error) {
      disarm()
      throw error
    }
    if (!response.body) {
      disarm()
      return response
    }
    arm()
    const watch = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        arm()
        out.enqueue(chunk)
      },
      flush: disarm
    })
    // The pipe, not fetch, ends the body on the watchdog or a Stop (see net/abortable-fetch.ts).
    return withBody(response, response.body.pipeThrough(watch, { signal: controller.signal }))
  }
  return {
    signal: controller.signal,
    fetch: watched,
    get stalled() {
      return stalled !== null
    },
    failure: (error?: unknown) => stalled ?? describeBreak(error),
    close: () => {
      disarm()
      turn.removeEventListener('abort', onTurn)
    }
  }
}

/** The provider sent a stream that did not hold what its format promises. */
export function invalidStream(why: string, cause?: unknown): ProviderStreamError {
  return new ProviderStreamError(
    'invalid',
    `the provider sent something that is not a valid stream (${why}); check that its base URL in Settings points at the API itself, and that the server speaks this provider kind's format.`,
    cause
  )
}

/** The stream ended before the reply did, though nothing said why. */
export function droppedStream(why: string, cause?: unknown): ProviderStreamError {
  return new ProviderStreamError(
    'dropped',
    `the connection to the provider dropped in the middle of its reply (${why}); what arrived is kept. Send a message to carry on.`,
    cause
  )
}

/** The start of a value a provider sent, for an error message. */
export function excerpt(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/**
 * The SDKs' logger. When a stream does not parse they dump the raw data to the console before
 * throwing; the turn's own error says what happened, so those dumps are dropped.
 */
export const sdkLogger = {
  error: (): void => undefined,
  warn: (...args: unknown[]): void => console.warn(...args),
  info: (...args: unknown[]): void => console.info(...args),
  debug: (...args: unknown[]): void => console.debug(...args)
}

/**
 * What both SDKs' clients are made with. Retries are the turn's (providers/retry.ts), so the
 * person sees each wait and can stop it.
 */
export function sdkClientOptions(options: { apiKey: string; baseURL?: string | undefined }): {
  apiKey: string
  baseURL: string | undefined
  maxRetries: 0
  logger: typeof sdkLogger
} {
  return { apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0, logger: sdkLogger }
}

/**
 * A provider's SDK client, made on the first request: loading an SDK takes longer than anything
 * else a command does before it (the Anthropic one 130 ms), and most commands never send one.
 */
export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null
  return () => (made ??= make())
}

function idleMessage(ms: number): string {
  const seconds = Number((ms / 1000).toFixed(1))
  return `the provider stopped sending for ${seconds} s, so its reply was given up; what arrived is kept. Check that the model server is still running, or raise provider_idle_timeout_s in Settings for a model that is slow to answer.`
}

/** A socket that went away or a stream that does not parse; anything else as it was. */
function describeBreak(error: unknown): unknown {
  if (error instanceof ProviderStreamError) return error
  if (error instanceof SyntaxError) return invalidStream(error.message, error)
  const dropped = droppedCause(error)
  if (dropped) return droppedStream(dropped, error)
  return error
}

function droppedCause(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && DROPPED.has(code)) return `${code}: ${e.message}`
    // undici's words for a body cut off by the other side.
    if (e.message === 'terminated' && e.cause === undefined) return 'the stream was cut off'
    e = e.cause
  }
  return null
}

/**
 * Runs one streamed request under its guard: the turn's stop passes through as it is, anything
 * else the SDK throws is reported as how the stream broke, and the guard is closed either way.
 */
export async function withStreamGuard<T>(
  request: { signal: AbortSignal; idleTimeoutMs?: number; onSent?: () => void },
  read: (guard: StreamGuard) => Promise<T>
): Promise<T> {
  const guard = guardStream(request.signal, request.idleTimeoutMs, request.onSent)
  try {
    return await read(guard)
  } catch (error) {
    if (request.signal.aborted) throw error
    throw guard.failure(error)
  } finally {
    guard.close()
  }
}
