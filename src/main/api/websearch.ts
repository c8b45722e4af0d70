import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { websearchHandlers } from '../tools/web/web-handlers'

/**
 * Settings → Search's Test button. Its handler still lives in tools/web (web-handlers.ts) while
 * the tools' own facts move there; it belongs here, like every slice's.
 */
export function websearchApi({
  keys,
  searchSources
}: Pick<Services, 'keys' | 'searchSources'>): SliceHandlers<'websearch'> {
  return websearchHandlers(keys, searchSources)
}
