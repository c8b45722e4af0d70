import { randomUUID } from 'node:crypto'
import type { ApprovalRequest } from '../../shared/approvals'
import type { EventHub } from '../events/event-hub'
import { isReadOnlyCall } from '../tools/tool'
import { approvalShell } from './approval-shell'
import type { Approver, ApproverAnswer, GateRequest } from './gate'

interface Waiting {
  request: ApprovalRequest
  settle: (answer: ApproverAnswer) => void
}

/**
 * Asks the person through the window: announces the request, waits for `approval.respond`, and
 * answers no when the turn is stopped meanwhile.
 */
export class InteractiveApprover implements Approver {
  readonly canAsk = true
  private readonly waiting = new Map<string, Waiting>()

  constructor(private readonly hub: EventHub) {}

  async ask(request: GateRequest, signal: AbortSignal, reason: string): Promise<ApproverAnswer> {
    const shell = await approvalShell(request.tool.name, request.input)
    const approval: ApprovalRequest = {
      approvalId: randomUUID(),
      sessionId: request.sessionId,
      callId: request.callId,
      tool: request.tool.name,
      input: request.input,
      readOnly: isReadOnlyCall(request.tool, request.input),
      capabilities: { ...request.tool.capabilities },
      reason,
      ...(request.ruleCanAllow === false ? { ruleCanAllow: false as const } : {}),
      ...(shell ? { shell } : {})
    }
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.settle(approval.approvalId, { decision: 'deny', reason: 'the turn was stopped' })
      }
      this.waiting.set(approval.approvalId, {
        request: approval,
        settle: (answer) => {
          signal.removeEventListener('abort', onAbort)
          resolve(answer)
        }
      })
      if (signal.aborted) return onAbort()
      signal.addEventListener('abort', onAbort, { once: true })
      this.hub.emit('approval.requested', approval)
    })
  }

  /** The person's answer; false when nothing waits under that id (already answered, stopped). */
  respond(approvalId: string, answer: ApproverAnswer): boolean {
    return this.settle(approvalId, answer)
  }

  pending(sessionId: string): ApprovalRequest[] {
    return [...this.waiting.values()]
      .filter((w) => w.request.sessionId === sessionId)
      .map((w) => w.request)
  }

  private settle(approvalId: string, answer: ApproverAnswer): boolean {
    const waiting = this.waiting.get(approvalId)
    if (!waiting) return false
    this.waiting.delete(approvalId)
    waiting.settle(answer)
    this.hub.emit('approval.resolved', {
      approvalId,
      sessionId: waiting.request.sessionId,
      decision: answer.decision
    })
    return true
  }
}
