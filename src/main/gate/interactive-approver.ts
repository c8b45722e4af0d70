import { randomUUID } from 'node:crypto'
import type { ApprovalRequest } from '../../shared/approvals'
import type { EventHub } from '../events/event-hub'
import { PendingAsks } from '../events/pending-asks'
import { isReadOnlyCall } from '../tools/tool'
import { approvalFacts } from '../tools/tool-presentation'
import { approvalShell } from './approval-shell'
import type { Approver, ApproverAnswer, AskOptions, GateRequest } from './gate'

interface Waiting {
  request: ApprovalRequest
  allowedByRule?: () => Promise<boolean>
}

/**
 * Asks the person through the window: announces the request, waits for `approval.respond`, and
 * answers no when the turn is stopped meanwhile. Several asks may wait at once (the calls of one
 * step, other sessions'): the window shows them as rows of one dialog.
 */
export class InteractiveApprover implements Approver {
  readonly canAsk = true
  private readonly asks: PendingAsks<Waiting, ApproverAnswer>
  /** The last ask still being described: each is announced after it, in the order asked. */
  private announcing: Promise<unknown> = Promise.resolve()

  constructor(private readonly hub: EventHub) {
    this.asks = new PendingAsks((approvalId, { request }, answer) =>
      hub.emit('approval.resolved', {
        approvalId,
        sessionId: request.sessionId,
        decision: answer.decision
      })
    )
  }

  async ask(
    request: GateRequest,
    signal: AbortSignal,
    reason: string,
    options: AskOptions = {}
  ): Promise<ApproverAnswer> {
    // A Shell call takes the parser a while to describe and a Write none: without waiting for
    // the ask before, the rows of one step would come in whatever order they were described.
    const described = approvalShell(request.tool.name, request.input)
    const inTurn = this.announcing.then(() => described)
    this.announcing = inTurn.catch(() => undefined)
    const shell = await inTurn
    const approval: ApprovalRequest = {
      approvalId: randomUUID(),
      sessionId: request.sessionId,
      callId: request.callId,
      tool: request.tool.name,
      input: request.input,
      readOnly: isReadOnlyCall(request.tool, request.input),
      capabilities: { ...request.tool.capabilities },
      ...approvalFacts(request.tool, request.input),
      reason,
      ...(request.ruleCanAllow === false ? { ruleCanAllow: false as const } : {}),
      ...(shell ? { shell } : {})
    }
    const waiting: Waiting = {
      request: approval,
      ...(options.allowedByRule ? { allowedByRule: options.allowedByRule } : {})
    }
    const stopped: ApproverAnswer = { decision: 'deny', reason: 'the turn was stopped' }
    return this.asks.wait(approval.approvalId, waiting, signal, stopped, () =>
      this.hub.emit('approval.requested', approval)
    )
  }

  /** The person's answer; false when nothing waits under that id (already answered, stopped). */
  respond(approvalId: string, answer: ApproverAnswer): boolean {
    return this.asks.settle(approvalId, answer)
  }

  /**
   * A permission rule was saved for this session ("Always allow" on one row): every call of the
   * session still waiting that the rules now allow is answered yes and leaves the dialog, as it
   * would have been allowed had it been asked after. A call they do not cover keeps waiting.
   * Returns how many were answered.
   */
  async rulesChanged(sessionId: string): Promise<number> {
    const covered = await Promise.all(
      this.asks
        .pending((w) => w.request.sessionId === sessionId && w.allowedByRule !== undefined)
        .map(async (w) => ((await w.allowedByRule?.()) === true ? w.request.approvalId : null))
    )
    let answered = 0
    for (const id of covered) {
      if (id && this.asks.settle(id, { decision: 'allow' })) answered += 1
    }
    return answered
  }

  pending(sessionId: string): ApprovalRequest[] {
    return this.asks.pending((w) => w.request.sessionId === sessionId).map((w) => w.request)
  }
}
