import { z } from 'zod'
import { todoStatusSchema } from '../../../shared/domain'
import { inputString, keyArgument } from '../../../shared/tool-input'
import { errorOutput, folderlessReadOnlyTool, noCapabilities, textOutput, type Tool } from '../tool'
import { plainPresentation } from '../tool-presentation'
import { planLines, planProgress } from './todo-board'

const MAX_ITEMS = 50
const MAX_TEXT = 200

const inputSchema = z.strictObject({
  items: z
    .array(
      z.strictObject({
        text: z
          .string()
          .trim()
          .min(1)
          .max(MAX_TEXT)
          .describe('One step, short and concrete: "Add the budget setting to settings.ts".'),
        status: todoStatusSchema.describe('pending, in_progress (one at a time) or done.')
      })
    )
    .max(MAX_ITEMS)
    .describe('The whole plan, in order. It replaces the previous list; [] clears it.')
})

/** A plan in a few words: "4 steps · 1 done · now: Write the tests", or the plan cleared. */
function planSummary(input: unknown): string | null {
  const items = input && typeof input === 'object' ? (input as { items?: unknown }).items : null
  if (!Array.isArray(items)) return null
  if (items.length === 0) return 'cleared the plan'
  const statuses = items.map((item: unknown) => inputString(item, 'status'))
  const done = statuses.filter((s) => s === 'done').length
  const current = items.find((item: unknown) => inputString(item, 'status') === 'in_progress')
  const now = current ? inputString(current, 'text') : null
  const steps = `${items.length} step${items.length === 1 ? '' : 's'} · ${done} done`
  return now ? `${steps} · now: ${now}` : steps
}

/**
 * Keeps the model's plan as a list it rewrites whole. It changes only the session's own state,
 * nothing of the person's, so it is read-only with no capabilities: it runs without approval in
 * every mode.
 */
export const todoTool: Tool = folderlessReadOnlyTool({
  name: 'Todo',
  description: [
    'Keep your plan for a task of several steps as a checklist, and keep it current: send the',
    'whole list each time (it replaces the previous one), marking each item pending,',
    'in_progress or done. Mark a step in_progress when you start it and done as soon as it is',
    'finished; keep one step in progress at a time. The person sees the list beside the chat,',
    'and every later tool result ends with it. Skip it for a task of one or two steps.'
  ].join(' '),
  inputSchema,
  capabilities: noCapabilities,
  presentation: {
    ...plainPresentation('Todo', 'nothing'),
    summary: (input) => planSummary(input) ?? keyArgument(input),
    // The plan is shown, never folded away.
    grouped: null
  },
  async call(input, ctx) {
    if (!ctx.todos) {
      return errorOutput(
        'there is no session here to keep a plan in (a single `call` from the command line); use Todo in a session'
      )
    }
    ctx.todos.replace(input.items)
    if (input.items.length === 0) return textOutput('Plan cleared.')
    return textOutput(`Plan updated (${planProgress(input.items)}):\n${planLines(input.items)}`)
  }
})
