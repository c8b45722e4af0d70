import type { ProviderSettings } from '../../shared/settings'
import { describeFailure } from '../agent/turn-loop'
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
