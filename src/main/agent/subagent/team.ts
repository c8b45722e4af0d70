import { z } from 'zod'
import type { ChildStep, ToolOutput } from '../../../shared/domain'
import type { SubagentProfile, TeamSettings } from '../../../shared/subagents'
import type { Catalog } from '../../tools/catalog'
import { defineTool, errorOutput, type Tool, type ToolContext } from '../../tools/tool'
import type { DelegationDeps } from './child-run'
import { capabilitiesOf, delegate } from './subagent-tools'

export const TEAM = 'Team'

/**
 * Team: the members of a named crew work on the task one after another, then the lead writes
 * one report from their answers. Mutating and serialized: one team runs at a time.
 */
export function teamTool(
  teams: readonly TeamSettings[],
  profiles: readonly SubagentProfile[],
  catalog: Catalog,
  deps: DelegationDeps
): Tool {
  const byName = new Map(profiles.map((p) => [p.name, p]))
  const everyone = teams.flatMap((t) => [t.lead, ...t.members])
  const tools = everyone.flatMap((name) => byName.get(name)?.tools ?? [])
  let queue: Promise<unknown> = Promise.resolve()
  return defineTool({
    name: TEAM,
    description: `Gives a task to a named team of sub-agents: each member works on it in turn, then the team's lead gathers their findings into one report, which is the result. Teams: ${teams
      .map(
        (t) =>
          `${t.name} (lead ${t.lead}; members ${t.members.join(', ')})${t.description ? `: ${t.description}` : ''}`
      )
      .join('; ')}.`,
    inputSchema: z
      .object({
        team: z.enum(teams.map((t) => t.name) as [string, ...string[]]),
        task: z.string().min(1)
      })
      .strict(),
    readOnly: false,
    capabilities: capabilitiesOf(tools, catalog),
    source: 'builtin',
    call: (input, ctx) => {
      const team = teams.find((t) => t.name === input.team)
      if (!team) return Promise.resolve(errorOutput(`there is no team ${input.team}`))
      const turn = queue.then(() => runTeam(team, input.task, byName, ctx, deps))
      queue = turn.catch(() => undefined)
      return turn
    }
  })
}

async function runTeam(
  team: TeamSettings,
  task: string,
  byName: Map<string, SubagentProfile>,
  ctx: ToolContext,
  deps: DelegationDeps
): Promise<ToolOutput> {
  const steps: ChildStep[] = []
  const answers: string[] = []
  const show = (agent: string, more: ChildStep[], status: 'running' | 'done' | 'failed'): void =>
    ctx.progress?.({
      kind: 'subagent',
      agent: `team ${team.name}: ${agent}`,
      task,
      status,
      steps: [...steps, ...more],
      note: null
    })
  const member = async (name: string, memberTask: string): Promise<ToolOutput> => {
    const profile = byName.get(name)
    if (!profile) return errorOutput(`the team names a sub-agent "${name}" that is not configured`)
    steps.push({ kind: 'text', id: `team-${name}-${steps.length}`, text: `**${name}**` })
    const output = await delegate(
      {
        agent: name,
        task: memberTask,
        tools: profile.tools,
        model: profile.model
          ? { providerId: profile.model.provider, model: profile.model.model }
          : undefined
      },
      { ...ctx, progress: (d) => d.kind === 'subagent' && show(name, d.steps, 'running') },
      deps
    )
    if (output.display?.kind === 'subagent') steps.push(...output.display.steps)
    return output
  }
  for (const name of team.members) {
    const output = await member(name, task)
    const text = output.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
    answers.push(`## ${name}${output.isError ? ' (did not finish)' : ''}\n${text}`)
  }
  const report = await member(
    team.lead,
    `You lead the team "${team.name}". The task was:\n${task}\n\nYour members answered:\n\n${answers.join('\n\n')}\n\nGather their findings into one report.`
  )
  const display = {
    kind: 'subagent' as const,
    agent: `team ${team.name}`,
    task,
    status: report.isError ? ('failed' as const) : ('done' as const),
    steps,
    note: null
  }
  return { ...report, display }
}
