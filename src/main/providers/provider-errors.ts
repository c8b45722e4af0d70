import type { ProviderSettings } from '../../shared/settings'
import { describeUnreachable } from '../net/net-failure'

export { describeBaseUrl } from '../../shared/base-url'

/** The address each kind talks to when Settings name none (the SDKs' own defaults). */
const DEFAULT_BASE_URL: Record<ProviderSettings['kind'], string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  'openai-compatible': ''
}

/**
 * A failed provider test in words a person can act on: which address failed and how (refused,
 * timed out, not found in DNS); other failures as the turn loop describes them. `signal` is the
 * one the test ran under: aborted means it ran out of time.
 */
export function describeProviderFailure(
  error: unknown,
  settings: Pick<ProviderSettings, 'kind' | 'base_url'>,
  signal?: AbortSignal
): string {
  const base = settings.base_url || DEFAULT_BASE_URL[settings.kind]
  return describeUnreachable(error, base, 'base URL', signal) ?? describeFailure(error)
}

/** Turns an SDK or network error into a sentence a person can act on. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const status = (error as { status?: unknown }).status
  const cause = (error as { cause?: { code?: string } }).cause
  if (status === 401 || status === 403) {
    return `The model provider refused the API key (${status}): check the key in Settings. ${error.message}`
  }
  if (status === 404) {
    return `The model provider answered 404: check the base URL and the model name. ${error.message}`
  }
  if (cause?.code === 'ECONNREFUSED' || /connection error/i.test(error.message)) {
    return `The model provider could not be reached (${error.message}); check that it is running and its base URL in Settings.`
  }
  return error.message
}
