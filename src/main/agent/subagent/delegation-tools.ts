import type { Settings } from '../../../shared/settings'
import type { Catalog } from '../../tools/catalog'
import type { Tool } from '../../tools/tool'
import type { DelegationDeps } from './child-run'
import { parallelMergeTool, parallelTool, type ParallelRuns } from './parallel'
import { subagentStatusTool } from './subagent-status'
import { profileTool, subagentTool } from './subagent-tools'
import { teamTool } from './team'

/**
 * The delegation tools: Subagent and SubagentStatus (which collects its background children),
 * one `Agent_<name>` per profile, Parallel and ParallelMerge, and Team (ad-hoc crews always, the
 * configured teams by name). Made afresh for each turn from the settings in force, so a profile
 * added in Settings is offered from the next turn; their capabilities come from the tools of
 * `catalog` they name.
 */
export function delegationTools(
  settings: Settings,
  catalog: Catalog,
  deps: DelegationDeps,
  runs: ParallelRuns
): Tool[] {
  return [
    subagentTool(deps, catalog),
    ...(deps.background ? [subagentStatusTool(deps.background, deps)] : []),
    ...settings.subagents.map((p) => profileTool(p, catalog, deps)),
    parallelTool(deps, runs, catalog),
    parallelMergeTool(runs),
    teamTool(settings.teams, settings.subagents, catalog, deps)
  ]
}
