import { z } from 'zod'
import { modelInventory } from '../../providers/model-inventory'
import type { Session } from '../session'
import type { ChildSpec, DelegationDeps } from './child-run'
import { FORK_BRIEF, forkedHistory } from './fork-history'
import { compileOutputSchema } from './output-schema'
import type { AnswerCheck } from './subagent-tools'

/** The generic Subagent tool's input: a task, its tools, and how the child is run. */
export const subagentInput = z
  .object({
    task: z
      .string()
      .min(1)
      .describe('What the sub-agent should do, with everything it needs to know'),
    tools: z.array(z.string()).describe('Tool names the sub-agent may use; [] for none'),
    background: z
      .boolean()
      .optional()
      .describe(
        'Return a handle (subagent-N) at once and let it work while you go on; collect its answer later with SubagentStatus. Its tools must all be read-only.'
      ),
    fork: z
      .boolean()
      .optional()
      .describe(
        'Start it from this conversation so far instead of a fresh one, so it knows what you know'
      ),
    output_schema: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'A JSON Schema its final answer must satisfy: it answers with JSON, which is checked, and a mismatch comes back as an error saying what did not match'
      ),
    model: z
      .object({
        provider_id: z.string().min(1),
        model_id: z.string().min(1)
      })
      .strict()
      .optional()
      .describe(
        "The model it runs on, as a provider_id and model_id pair that DiscoverModels lists; this session's model when left out"
      )
  })
  .strict()

export type SubagentInput = z.infer<typeof subagentInput>

export type PreparedSubagent =
  { ok: true; spec: ChildSpec; check?: AnswerCheck } | { ok: false; why: string }

/**
 * A Subagent call's child, from its options, or why it cannot be run (a model that is not in
 * Settings, a schema that cannot be used), said before any child starts.
 */
export async function subagentSpec(
  input: SubagentInput,
  parent: Session,
  deps: DelegationDeps
): Promise<PreparedSubagent> {
  const spec: ChildSpec = { agent: 'Subagent', task: input.task, tools: input.tools }
  if (input.model) {
    const { provider_id: providerId, model_id: model } = input.model
    // Only what DiscoverModels lists: a provider of Settings, and one of its models by name.
    const known = modelInventory(deps.turns.services.settings()).some(
      (m) => m.providerId === providerId && m.model === model
    )
    if (!known) {
      return {
        ok: false,
        why: `There is no model "${model}" of a provider "${providerId}" in Settings. Call DiscoverModels for the provider_id and model_id pairs there are, or leave model out to use this session's model.`
      }
    }
    spec.model = { providerId, model }
  }
  let check: AnswerCheck | undefined
  if (input.output_schema) {
    const compiled = await compileOutputSchema(input.output_schema)
    if (!compiled.ok) return { ok: false, why: compiled.why }
    check = { schema: input.output_schema, check: compiled.check }
  }
  if (input.fork) {
    spec.history = forkedHistory(parent.history)
    spec.instructions = FORK_BRIEF
  }
  return { ok: true, spec, check }
}
