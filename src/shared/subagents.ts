import { z } from 'zod'
import { uniqueKeys } from './unique-keys'

/**
 * What a trusted answer must look like: a number, a boolean, or one of a fixed list of words.
 * Only an answer that parses as its shape can come back without the untrusted mark.
 */
export const answerShapeSchema = z.union([
  z.literal('number'),
  z.literal('boolean'),
  z.array(z.string().min(1)).min(1)
])
export type AnswerShape = z.infer<typeof answerShapeSchema>

const profileName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,40}$/, 'use letters, digits, "_" or "-", starting with a letter')

/** A sub-agent profile: a child agent the model can send a task to, with exactly these tools. */
export const subagentProfileSchema = z
  .object({
    name: profileName,
    description: z.string().min(1),
    /** The child's tools, exactly: none when empty, never one the parent session lacks. */
    tools: z.array(z.string().min(1)).default([]),
    /** Another model for the child; the parent's model when absent. */
    model: z
      .object({ provider: z.string().min(1), model: z.string().min(1) })
      .strict()
      .optional(),
    /** The answer comes back unmarked when it parses as `answer_shape`. */
    trusted_output: z.boolean().default(false),
    answer_shape: answerShapeSchema.optional()
  })
  .strict()
  .superRefine((profile, ctx) => {
    if (profile.trusted_output && profile.answer_shape === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['answer_shape'],
        message: `sub-agent "${profile.name}" has trusted_output but no answer_shape; add answer_shape: number, boolean or a list of allowed answers (only an answer of that shape can be trusted), or remove trusted_output`
      })
    }
  })
export type SubagentProfile = z.infer<typeof subagentProfileSchema>

/** A named crew: the members work on the task, then the lead writes one report from their answers. */
export const teamSchema = z
  .object({
    name: profileName,
    description: z.string().optional(),
    lead: z.string().min(1),
    members: z.array(z.string().min(1)).min(1)
  })
  .strict()
export type TeamSettings = z.infer<typeof teamSchema>

/** Profile names are unique and every team names profiles that exist. */
export function checkDelegation(
  s: { subagents: readonly SubagentProfile[]; teams: readonly TeamSettings[] },
  ctx: z.RefinementCtx
): void {
  const names = uniqueKeys(ctx, 'subagents', 'sub-agent', 'name')
  s.subagents.forEach((p, i) => names.meet(p.name, i))
  const teams = uniqueKeys(ctx, 'teams', 'team', 'name')
  s.teams.forEach((team, i) => {
    teams.meet(team.name, i)
    const check = (name: string, path: (string | number)[]): void => {
      if (!names.seen.has(name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['teams', i, ...path],
          message: `team "${team.name}" names the sub-agent "${name}", which is not in subagents`
        })
      }
    }
    check(team.lead, ['lead'])
    team.members.forEach((member, j) => check(member, ['members', j]))
  })
}
