import type { ApprovalShell } from '../../shared/approvals'
import { analyzeShell } from './shell-command'

/**
 * What the permission rules' parser finds in a Shell call, for the approval dialog to say in
 * words: the same analysis the rules judge, so the person reads what the gate read rather than
 * a second guess made in the window. Undefined for any other call.
 */
export async function approvalShell(
  tool: string,
  input: unknown
): Promise<ApprovalShell | undefined> {
  if (tool !== 'Shell' || !input || typeof input !== 'object') return undefined
  const command = (input as Record<string, unknown>).command
  if (typeof command !== 'string') return undefined
  let analysis: Awaited<ReturnType<typeof analyzeShell>>
  try {
    analysis = await analyzeShell(command)
  } catch (error) {
    // The person is still asked; the dialog says the line could not be read rather than nothing.
    const why = error instanceof Error ? error.message : String(error)
    return {
      commands: [],
      redirections: [],
      substitutions: [],
      concerns: [`the parser could not read the command (${why}), so nothing in it is known`]
    }
  }
  const concerns = [...analysis.concerns, ...analysis.commands.flatMap((c) => c.concerns)]
  return {
    commands: analysis.commands.map((c) => c.source),
    redirections: analysis.redirections.map((r) => ({ source: r.source, access: r.access })),
    substitutions: analysis.substitutions,
    concerns: [...new Set(concerns)]
  }
}
