import { describeIssues } from '../../shared/settings'
import { websearchSettingsSchema } from '../../shared/websearch'
import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { withDeadline } from '../net/deadline'
import { chainFailure, searchChain } from '../tools/web/search-chain'
import { effectiveBackends } from '../tools/web/search-sources'

const TEST_RESULTS = 5
/** How long Settings' Test waits for the whole chain of backends. */
const SEARCH_TEST_TIMEOUT_MS = 120_000

/**
 * Settings → Search's Test button: runs a query over the chain the drafted settings give (with
 * what the environment adds, as WebSearch would), so a person sees it work, or why not.
 */
export function websearchApi({
  keys,
  searchSources
}: Pick<Services, 'keys' | 'searchSources'>): SliceHandlers<'websearch'> {
  return {
    'websearch.test': async ({ websearch, query }) => {
      const parsed = websearchSettingsSchema.safeParse(websearch ?? {})
      if (!parsed.success) {
        const first = describeIssues(parsed.error)[0]
        return { ok: false, error: `websearch.${first?.path}: ${first?.message}` }
      }
      const backends = effectiveBackends(parsed.data, searchSources)
      const outcome = await withDeadline(SEARCH_TEST_TIMEOUT_MS, (signal) =>
        searchChain({ ...parsed.data, backends }, query, TEST_RESULTS, keys, signal)
      )
      if (!outcome.ok) return { ok: false, error: chainFailure(outcome) }
      return {
        ok: true,
        backend: outcome.backend,
        failures: outcome.failures,
        results: outcome.results.map((r, i) => ({ handle: `#${i + 1}`, ...r }))
      }
    }
  }
}
