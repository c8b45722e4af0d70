import type { Tool } from '../tool'
import { ResultHandles } from './result-handles'
import { webFetchTool } from './web-fetch'
import { webOpenTool, webSearchTool, type WebSearchDeps } from './web-search'

/** The tools that come and go with the search chain (WebFetch needs no backend). */
export const SEARCH_TOOL_NAMES: readonly string[] = ['WebSearch', 'WebOpen']

export interface WebToolsOptions extends Omit<WebSearchDeps, 'handles'> {
  /** false (`websearch.enabled: false`, `--websearch=off`) leaves WebSearch and WebOpen out. */
  search: boolean
}

/**
 * WebFetch always; WebSearch and WebOpen unless search is turned off. Whether a turn is offered
 * the two also depends on there being a backend to ask (see search-sources.ts: hasBackend).
 */
export function webTools(options: WebToolsOptions): Tool[] {
  const tools = [webFetchTool(options.guard)]
  if (!options.search) return tools
  const deps = { ...options, handles: new ResultHandles() }
  return [...tools, webSearchTool(deps), webOpenTool(deps)]
}
