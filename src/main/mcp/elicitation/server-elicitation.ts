import {
  ErrorCode,
  McpError,
  type ElicitRequestFormParams,
  type ElicitResult
} from '@modelcontextprotocol/sdk/types.js'
import type { Elicitation } from '../../../shared/elicitation'
import type { LogRing } from '../log-ring'
import { elicitFields } from './elicit-fields'
import type { ElicitOutcome } from './elicitation-broker'

/** Shows a server's form to the person of its project's window; absent headless. */
export type AskPerson = (
  ask: Omit<Elicitation, 'elicitationId' | 'workspace'>,
  signal: AbortSignal
) => Promise<ElicitOutcome>

/** What a server hears when nobody can answer: it is meant to be read by the server's author. */
export const HEADLESS_REFUSAL =
  'Mecatl is running without a window here (mecatl call or mecatl run), so nobody can answer this request for input; it is refused. Go on without it, or run the task in the Mecatl window.'

/**
 * Answers one server's `elicitation/create` (form mode): normalizes its schema, asks the person
 * (or refuses, headless) and records in the server's log what happened, with field names at most
 * and never what the person typed.
 */
export async function answerElicitation(
  params: ElicitRequestFormParams,
  signal: AbortSignal,
  server: { name: string; log: LogRing; ask: AskPerson | undefined }
): Promise<ElicitResult> {
  const { log, ask } = server
  log.event(`asked the person: ${oneLine(params.message)}`)
  if (!ask) {
    log.event('refused: there is no window to ask in (headless)')
    throw new McpError(ErrorCode.InvalidRequest, HEADLESS_REFUSAL)
  }
  let fields
  try {
    fields = elicitFields(params.requestedSchema)
  } catch (error) {
    log.event(`refused: ${error instanceof Error ? error.message : String(error)}`)
    throw error
  }
  const outcome = await ask({ server: server.name, message: params.message, fields }, signal)
  if (outcome.action === 'accept') {
    const names = Object.keys(outcome.content)
    log.event(`the person answered${names.length > 0 ? ` (${names.join(', ')})` : ''}`)
    return { action: 'accept', content: outcome.content }
  }
  log.event(outcome.action === 'decline' ? 'the person declined' : 'cancelled')
  return { action: outcome.action }
}

/** A log line is one line, and a server's long message is cut. */
function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim()
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat
}
