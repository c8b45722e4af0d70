import { z } from 'zod'
import type { ChildStep, ModelRef, ToolOutput } from '../../../shared/domain'
import type { SubagentProfile, TeamSettings } from '../../../shared/subagents'
import type { Catalog } from '../../tools/catalog'
import { defineTool, errorOutput, type Tool, type ToolContext } from '../../tools/tool'
import { plainPresentation } from '../../tools/tool-presentation'
import { childCatalog, type DelegationDeps } from './child-run'
import { capabilitiesOf, delegate, widest } from './subagent-tools'

export const TEAM = 'Team'

/** One member of a crew, or its lead, as a child is started for it. */
interface Hand {
  name: string
  /** `lead` or `member`, for what the model is told when a tool cannot be given. */
  part: 'lead' | 'member'
  tools: readonly string[]
  model?: ModelRef
  instructions?: string
}

/** The members and lead of one Team call: a configured team's, or those the call gives. */
interface Crew {
  label: string
  members: Hand[]
  lead: Hand
}

const roleField = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .describe('Who this sub-agent is, in a few words ("security reviewer"); it works from that angle')

const memberSchema = z
  .object({
    role: roleField,
    tools: z
      .array(z.string())
      .describe('Tools this member may use, e.g. ["Read", "Grep"]; [] for none')
  })
  .strict()

const leadSchema = z
  .object({
    role: roleField,
    tools: z.array(z.string()).default([]).describe('Tools the lead may use; none when left out')
  })
  .strict()

const taskField = z.string().min(1).describe('The task every member works on, with all it needs')
const membersField = z.array(memberSchema).min(1).max(8).describe('The crew, who work in turn')
const leadField = leadSchema.describe('Gathers the members’ answers into one report')

type AdHoc = { members: z.infer<typeof memberSchema>[]; lead: z.infer<typeof leadSchema> }
type TeamInput = { task: string; team?: string; members?: AdHoc['members']; lead?: AdHoc['lead'] }

/**
 * Team: the members of a crew work on the task one after another, then the lead writes one report
 * from their answers. The crew is given in the call, or is a team configured in the settings, by
 * name. Mutating and serialized: one team runs at a time.
 */
export function teamTool(
  teams: readonly TeamSettings[],
  profiles: readonly SubagentProfile[],
  catalog: Catalog,
  deps: DelegationDeps
): Tool {
  const byName = new Map(profiles.map((p) => [p.name, p]))
  const crewOf = (input: TeamInput): Crew | string => {
    if (input.members && input.lead) return adHocCrew({ members: input.members, lead: input.lead })
    const team = teams.find((t) => t.name === input.team)
    return team ? configuredCrew(team, byName) : `there is no team ${input.team ?? '(none named)'}`
  }
  let queue: Promise<unknown> = Promise.resolve()
  return defineTool({
    name: TEAM,
    description: describeTeams(teams),
    inputSchema: teamSchema(teams),
    readOnly: false,
    capabilities: widest,
    // Each call may do what the tools of its crew may.
    capabilitiesFor: (input) => {
      const crew = crewOf(input)
      const hands = typeof crew === 'string' ? [] : [crew.lead, ...crew.members]
      return capabilitiesOf(
        hands.flatMap((h) => h.tools),
        catalog
      )
    },
    source: 'builtin',
    // Its crew works under the session's own profile (turn-tools.ts: childProfile).
    folderContent: false,
    needsFolder: false,
    defaultDecision: null,
    presentation: plainPresentation(TEAM, 'other'),
    call: (input, ctx) => {
      const crew = crewOf(input)
      if (typeof crew === 'string') return Promise.resolve(errorOutput(crew))
      const turn = queue.then(() => runTeam(crew, input.task, ctx, deps))
      queue = turn.catch(() => undefined)
      return turn
    }
  })
}

/** Ad-hoc crews always; with teams configured, a team by name as the other way. */
function teamSchema(teams: readonly TeamSettings[]): z.ZodType<TeamInput> {
  const names = teams.map((t) => t.name)
  if (names.length === 0) {
    return z.object({ task: taskField, members: membersField, lead: leadField }).strict()
  }
  return z
    .object({
      task: taskField,
      team: z
        .enum(names as [string, ...string[]])
        .optional()
        .describe('A configured team; leave out to give members and lead'),
      members: membersField.optional(),
      lead: leadField.optional()
    })
    .strict()
    .superRefine((input, ctx) => {
      const adHoc = input.members !== undefined || input.lead !== undefined
      const whole = input.members !== undefined && input.lead !== undefined
      if (input.team !== undefined ? adHoc : !whole) {
        ctx.addIssue({
          code: 'custom',
          message: `give either \`team\` (one of: ${names.join(', ')}) or \`members\` and \`lead\` for a crew of your own, not both`
        })
      }
    })
}

function describeTeams(teams: readonly TeamSettings[]): string {
  const base =
    'Gives a task to a team of sub-agents: each member works on it in turn, in a fresh conversation with exactly its own tools, then the lead gathers their findings into one report, which is the result. Give the crew in the call: `members` (each a `role` and the `tools` it may use) and a `lead`.'
  if (teams.length === 0) return base
  const listed = teams
    .map(
      (t) =>
        `${t.name} (lead ${t.lead}; members ${t.members.join(', ')})${t.description ? `: ${t.description}` : ''}`
    )
    .join('; ')
  return `${base} Or name a configured team with \`team\`: ${listed}.`
}

function adHocCrew(input: AdHoc): Crew {
  const hand = (part: Hand['part'], role: string, tools: readonly string[]): Hand => ({
    name: role,
    part,
    tools,
    instructions: `You are one of a team of sub-agents; your part in it: ${role}.`
  })
  return {
    label: 'crew',
    members: input.members.map((m) => hand('member', m.role, m.tools)),
    lead: hand('lead', input.lead.role, input.lead.tools)
  }
}

function configuredCrew(team: TeamSettings, byName: Map<string, SubagentProfile>): Crew | string {
  const hand = (part: Hand['part'], name: string): Hand | string => {
    const profile = byName.get(name)
    if (!profile) return `the team ${team.name} names a sub-agent "${name}" that is not configured`
    return {
      name,
      part,
      tools: profile.tools,
      model: profile.model
        ? { providerId: profile.model.provider, model: profile.model.model }
        : undefined
    }
  }
  const lead = hand('lead', team.lead)
  const members = team.members.map((name) => hand('member', name))
  const missing = [lead, ...members].find((h) => typeof h === 'string')
  if (typeof missing === 'string') return missing
  return { label: team.name, lead: lead as Hand, members: members as Hand[] }
}

/** Why the crew cannot start (a tool no child may be given here), before anyone works. */
async function refusedTools(
  crew: Crew,
  ctx: ToolContext,
  deps: DelegationDeps
): Promise<string | null> {
  const hands = [...crew.members, crew.lead]
  const { missing } = await childCatalog(
    deps.session(ctx.sessionId),
    hands.flatMap((h) => h.tools),
    deps
  )
  if (missing.length === 0) return null
  const lacking = new Set(missing)
  const named = hands
    .filter((h) => h.tools.some((t) => lacking.has(t)))
    .map(
      (h) => `${h.part} "${h.name}" asks for ${h.tools.filter((t) => lacking.has(t)).join(', ')}`
    )
  return `Team did not start: these tools cannot be given to a sub-agent here: ${missing.join(', ')} (not in this session, or a delegation tool); ${named.join('; ')}. Give each member tools from your own list, or none.`
}

async function runTeam(
  crew: Crew,
  task: string,
  ctx: ToolContext,
  deps: DelegationDeps
): Promise<ToolOutput> {
  const refused = await refusedTools(crew, ctx, deps)
  if (refused) return errorOutput(refused)
  const steps: ChildStep[] = []
  const answers: string[] = []
  const show = (agent: string, more: ChildStep[], status: 'running' | 'done' | 'failed'): void =>
    ctx.progress?.({
      kind: 'subagent',
      agent: `team ${crew.label}: ${agent}`,
      task,
      status,
      steps: [...steps, ...more],
      note: null
    })
  const work = async (hand: Hand, handTask: string): Promise<ToolOutput> => {
    steps.push({ kind: 'text', id: `team-${steps.length}`, text: `**${hand.name}**` })
    const output = await delegate(
      {
        agent: hand.name,
        task: handTask,
        tools: hand.tools,
        model: hand.model,
        instructions: hand.instructions
      },
      { ...ctx, progress: (d) => d.kind === 'subagent' && show(hand.name, d.steps, 'running') },
      deps
    )
    if (output.display?.kind === 'subagent') steps.push(...output.display.steps)
    return output
  }
  for (const member of crew.members) {
    const output = await work(member, task)
    const text = output.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
    answers.push(`## ${member.name}${output.isError ? ' (did not finish)' : ''}\n${text}`)
  }
  const report = await work(
    crew.lead,
    `You lead the team "${crew.label}". The task was:\n${task}\n\nYour members answered:\n\n${answers.join('\n\n')}\n\nGather their findings into one report.`
  )
  const display = {
    kind: 'subagent' as const,
    agent: `team ${crew.label}`,
    task,
    status: report.isError ? ('failed' as const) : ('done' as const),
    steps,
    note: null
  }
  return { ...report, display }
}
