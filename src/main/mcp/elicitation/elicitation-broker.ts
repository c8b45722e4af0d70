import { randomUUID } from 'node:crypto'
import {
  elicitContentProblem,
  type ElicitAction,
  type ElicitValue,
  type Elicitation
} from '../../../shared/elicitation'
import type { EventHub } from '../../events/event-hub'
import { PendingAsks } from '../../events/pending-asks'

/** What the person did with a server's form. Content only ever comes with `accept`. */
export type ElicitOutcome =
  { action: 'accept'; content: Record<string, ElicitValue> } | { action: 'decline' | 'cancel' }

/** An answer whose content does not fit the form: the sentence names the field. */
export class ElicitContentError extends Error {}

/**
 * Carries MCP servers' requests for input (elicitation) to the window and the person's answers
 * back to the server that asked, like the AskUser broker: announce, wait, settle, resolved. The
 * events carry the questions and never the answers, and no session log records them: what the
 * person types goes to that server alone.
 */
export class ElicitationBroker {
  private readonly asks: PendingAsks<Elicitation, ElicitOutcome>

  constructor(private readonly hub: EventHub) {
    this.asks = new PendingAsks((elicitationId, elicitation) =>
      hub.emit('mcp.elicitation.resolved', { elicitationId, workspace: elicitation.workspace })
    )
  }

  /** Shows the form and waits; `signal` (the server cancelled, or went away) settles it cancelled. */
  ask(ask: Omit<Elicitation, 'elicitationId'>, signal: AbortSignal): Promise<ElicitOutcome> {
    const elicitation: Elicitation = { ...ask, elicitationId: randomUUID() }
    return this.asks.wait(
      elicitation.elicitationId,
      elicitation,
      signal,
      { action: 'cancel' },
      () => this.hub.emit('mcp.elicitation.asked', elicitation)
    )
  }

  /**
   * The person's answer. False when nothing waits under that id (answered in another window, or
   * the server gave up). Throws ElicitContentError, and keeps waiting, when accepted content does
   * not fit the form.
   */
  answer(elicitationId: string, action: ElicitAction, content?: Record<string, unknown>): boolean {
    const elicitation = this.asks.get(elicitationId)
    if (!elicitation) return false
    if (action !== 'accept') return this.asks.settle(elicitationId, { action })
    const given = content ?? {}
    const problem = elicitContentProblem(elicitation.fields, given)
    if (problem) throw new ElicitContentError(problem)
    // Rebuilt from the form's own field names (checked just above), so nothing but what the
    // server asked for, not even an inherited key, can travel with the answer.
    const answer: Record<string, ElicitValue> = {}
    for (const { name } of elicitation.fields) {
      if (Object.prototype.hasOwnProperty.call(given, name)) {
        answer[name] = given[name] as ElicitValue
      }
    }
    return this.asks.settle(elicitationId, { action: 'accept', content: answer })
  }

  /** The requests of a project's servers still waiting (a reloaded window shows them again). */
  pending(workspace: string): Elicitation[] {
    return this.asks.pending((elicitation) => elicitation.workspace === workspace)
  }
}
