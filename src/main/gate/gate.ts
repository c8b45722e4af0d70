import type { ApprovalMode } from '../../shared/domain'
import type { Tool } from '../tools/tool'

/** A call that has passed its schema and waits for the gate's word. */
export interface GateRequest {
  sessionId: string
  callId: string
  tool: Tool
  input: unknown
}

export type GateDecision =
  { allowed: true } | { allowed: false; refusedBy: 'mode' | 'approver'; reason: string }

export interface ApproverAnswer {
  decision: 'allow' | 'deny'
  reason?: string
}

/**
 * Whoever decides in `ask` mode: the person behind the window's modal, or nobody (a headless
 * run), in which case the answer is no.
 */
export interface Approver {
  readonly canAsk: boolean
  ask(request: GateRequest, signal: AbortSignal): Promise<ApproverAnswer>
}

export const nobodyToAsk: Approver = {
  canAsk: false,
  ask: async () => ({ decision: 'deny' })
}

/**
 * The gate's first form: the approval mode, then the approver. Later layers (interlock, hooks,
 * rules) slot in ahead of the approver without changing callers.
 */
export class Gate {
  constructor(
    private readonly mode: () => ApprovalMode,
    private readonly approver: Approver
  ) {}

  async decide(request: GateRequest, signal: AbortSignal): Promise<GateDecision> {
    const mode = this.mode()
    const { tool } = request
    if (mode === 'allow') return { allowed: true }
    if (tool.readOnly) return { allowed: true }
    if (mode === 'read-only') {
      return {
        allowed: false,
        refusedBy: 'mode',
        reason: `${tool.name} changes files, and this session is in read-only mode; only read-only tools may run. Ask the person to switch modes if the change is needed.`
      }
    }
    if (!this.approver.canAsk) {
      return {
        allowed: false,
        refusedBy: 'approver',
        reason: `${tool.name} needs a person's approval, and nobody is available to approve it in this headless run (mode "ask"). Do not retry; say what you would have done instead.`
      }
    }
    const answer = await this.approver.ask(request, signal)
    if (answer.decision === 'allow') return { allowed: true }
    const why = answer.reason?.trim()
    return {
      allowed: false,
      refusedBy: 'approver',
      reason: why
        ? `The person denied this ${tool.name} call, saying: ${why}`
        : `The person denied this ${tool.name} call.`
    }
  }
}
