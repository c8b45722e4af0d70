import { backendLabel, type WebsearchSettings } from '../../../shared/websearch'
import { deadline } from '../../net/deadline'
import { searchWith, type FoundResult, type SearchKeys } from './search-backends'

/** The outcome of one query over the chain. */
export type ChainOutcome =
  | { ok: true; backend: string; results: FoundResult[]; failures: string[] }
  | { ok: false; failures: string[] }

/** At most `limit` searches in flight; the rest wait their turn. */
export class Limiter {
  private active = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly limit: () => number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit()) {
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    }
    this.active++
    try {
      return await task()
    } finally {
      this.active--
      this.waiting.shift()?.()
    }
  }
}

/**
 * Tries each enabled backend in order, each with its own timeout; the first that answers wins,
 * so a rate-limited or broken one degrades to the next. The query is sent verbatim.
 */
export async function searchChain(
  settings: WebsearchSettings,
  query: string,
  count: number,
  keys: SearchKeys,
  signal: AbortSignal
): Promise<ChainOutcome> {
  const failures: string[] = []
  for (const backend of settings.backends.filter((b) => b.enabled)) {
    const label = backendLabel(backend)
    const limit = deadline(settings.timeout_ms, signal)
    try {
      const results = await searchWith(backend, query, count, keys, limit.signal)
      return { ok: true, backend: label, results, failures }
    } catch (error) {
      if (signal.aborted) throw error
      const why = limit.expired
        ? `no answer within ${settings.timeout_ms / 1000} s`
        : describe(error)
      failures.push(`${label}: ${why}`)
    } finally {
      limit.clear()
    }
  }
  return { ok: false, failures }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as Error & { cause?: unknown }).cause
  const code = (cause as NodeJS.ErrnoException | undefined)?.code
  return code ? `${error.message} (${code})` : error.message
}

/** The one error a person or the model sees when no backend answered. */
export function chainFailure(outcome: { failures: string[] }): string {
  if (outcome.failures.length === 0) {
    return 'No search backend is configured (or all are turned off). Add one in Settings → Search (Exa, Brave, SearXNG or a JSON service), set EXA_API_KEY, BRAVE_API_KEY or SEARXNG_URL, or leave `websearch.defaults` on for Exa’s public endpoint.'
  }
  return [
    'Every search backend failed:',
    ...outcome.failures.map((f) => `- ${f}`),
    'Check the keys and URLs in Settings → Search, or try again later.'
  ].join('\n')
}
