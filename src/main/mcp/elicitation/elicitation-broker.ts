import { randomUUID } from 'node:crypto'
import {
  elicitContentProblem,
  type ElicitAction,
  type ElicitValue,
  type Elicitation
} from '../../../shared/elicitation'
import type { EventHub } from '../../events/event-hub'

/** What the person did with a server's form. Content only ever comes with `accept`. */
export type ElicitOutcome =
  { action: 'accept'; content: Record<string, ElicitValue> } | { action: 'decline' | 'cancel' }

/** An answer whose content does not fit the form: the sentence names the field. */
export class ElicitContentError extends Error {}

interface Waiting {
  elicitation: Elicitation
  settle: (outcome: ElicitOutcome) => void
}

/**
 * Carries MCP servers' requests for input (elicitation) to the window and the person's answers
 * back to the server that asked, like the AskUser broker: announce, wait, settle, resolved. The
 * events carry the questions and never the answers, and no session log records them: what the
 * person types goes to that server alone.
 */
export class ElicitationBroker {
  private readonly waiting = new Map<string, Waiting>()

  constructor(private readonly hub: EventHub) {}

  /** Shows the form and waits; `signal` (the server cancelled, or went away) settles it cancelled. */
  ask(ask: Omit<Elicitation, 'elicitationId'>, signal: AbortSignal): Promise<ElicitOutcome> {
    const elicitation: Elicitation = { ...ask, elicitationId: randomUUID() }
    return new Promise((resolve) => {
      const onAbort = (): void => void this.settle(elicitation.elicitationId, { action: 'cancel' })
      this.waiting.set(elicitation.elicitationId, {
        elicitation,
        settle: (outcome) => {
          signal.removeEventListener('abort', onAbort)
          resolve(outcome)
        }
      })
      if (signal.aborted) return onAbort()
      signal.addEventListener('abort', onAbort, { once: true })
      this.hub.emit('mcp.elicitation.asked', elicitation)
    })
  }

  /**
   * The person's answer. False when nothing waits under that id (answered in another window, or
   * the server gave up). Throws ElicitContentError, and keeps waiting, when accepted content does
   * not fit the form.
   */
  answer(elicitationId: string, action: ElicitAction, content?: Record<string, unknown>): boolean {
    const waiting = this.waiting.get(elicitationId)
    if (!waiting) return false
    if (action !== 'accept') return this.settle(elicitationId, { action })
    const given = content ?? {}
    const problem = elicitContentProblem(waiting.elicitation.fields, given)
    if (problem) throw new ElicitContentError(problem)
    // Rebuilt from the form's own field names (checked just above), so nothing but what the
    // server asked for, not even an inherited key, can travel with the answer.
    const answer: Record<string, ElicitValue> = {}
    for (const { name } of waiting.elicitation.fields) {
      if (Object.prototype.hasOwnProperty.call(given, name)) {
        answer[name] = given[name] as ElicitValue
      }
    }
    return this.settle(elicitationId, { action: 'accept', content: answer })
  }

  /** The requests of a project's servers still waiting (a reloaded window shows them again). */
  pending(workspace: string): Elicitation[] {
    return [...this.waiting.values()]
      .filter((w) => w.elicitation.workspace === workspace)
      .map((w) => w.elicitation)
  }

  private settle(elicitationId: string, outcome: ElicitOutcome): boolean {
    const waiting = this.waiting.get(elicitationId)
    if (!waiting) return false
    this.waiting.delete(elicitationId)
    waiting.settle(outcome)
    this.hub.emit('mcp.elicitation.resolved', {
      elicitationId,
      workspace: waiting.elicitation.workspace
    })
    return true
  }
}
