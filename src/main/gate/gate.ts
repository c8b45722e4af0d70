import type { ApprovalMode } from '../../shared/domain'
import { isReadOnlyCall, type Tool } from '../tools/tool'
import { permissionFloor } from './floor'
import { gitFolderWrite } from './git-folder'
import { runHooks, type HookConfig } from './hooks'
import { decideSystemTemp, systemTempForbidden } from './system-temp'
import { judgeShell, judgeTool, type PermissionRule, type RuleVerdict } from './rules'
import { cleanTaint, interlock, type Taint } from './taint'

/** A call that has passed its schema and waits for the gate's word. */
export interface GateRequest {
  sessionId: string
  callId: string
  tool: Tool
  input: unknown
  /**
   * Set by the gate when it asks a person: false when no permission rule could allow this call
   * (a write into .git, a line the parser cannot prove harmless), so none should be offered.
   */
  ruleCanAllow?: false
}

/** Which part of the gate refused a call; the window and `call` show it. */
export type RefusedBy = 'interlock' | 'hook' | 'rule' | 'mode' | 'planning' | 'approver'

export type GateDecision =
  /** `gitWrite`: a person approved it as a write into `.git` (the tool may then act there). */
  | { allowed: true; by: 'mode' | 'rule' | 'approver' | 'yes'; gitWrite?: true }
  | { allowed: false; refusedBy: RefusedBy; reason: string }

export interface ApproverAnswer {
  decision: 'allow' | 'deny'
  reason?: string
}

/**
 * Whoever decides when a person must: the window's modal, or nobody (a headless run), in which
 * case the answer is no. `reason` says why the person is being asked (a prompt rule, the mode).
 */
export interface Approver {
  readonly canAsk: boolean
  ask(
    request: GateRequest,
    signal: AbortSignal,
    reason: string,
    options?: AskOptions
  ): Promise<ApproverAnswer>
}

/** What the gate tells an approver beside the question. */
export interface AskOptions {
  /**
   * Whether the permission rules as they are now allow this call without a person (absent when
   * no rule could): the approver asks it again after a rule is saved, so "Always allow" answered
   * on one waiting call also answers the others of the step it covers. Never throws.
   */
  allowedByRule?: () => Promise<boolean>
}

/** Asks a person about the call being decided (see `Gate.askPerson`). */
type Ask = (why: string, may: { yes: boolean; rule?: false }) => Promise<GateDecision>

export const nobodyToAsk: Approver = {
  canAsk: false,
  ask: async () => ({ decision: 'deny' })
}

export interface GatePolicy {
  mode: ApprovalMode
  rules: readonly PermissionRule[]
  /**
   * Reads the rules afresh for each call, so a rule saved while a turn runs ("Always allow" in
   * the approval dialog) decides the very next call; without it, `rules` holds for the turn.
   */
  currentRules?: () => Promise<readonly PermissionRule[]>
  hooks: readonly HookConfig[]
  blockSendsAfterPrivate: boolean
  /** `--yes`: allow what the mode would ask about, never what a rule says to prompt for. */
  autoApprove: boolean
  /** Planning: only read-only tools, whatever else is configured. */
  planning: boolean
  workspace: string
}

const defaultPolicy: GatePolicy = {
  mode: 'ask',
  rules: [],
  hooks: [],
  blockSendsAfterPrivate: false,
  autoApprove: false,
  planning: false,
  workspace: '.'
}

/**
 * Decides every call, in this order: the interlock (taint), planning, hooks, forbidding rules,
 * read-only mode, writes into .git (a person, always), then prompting and allowing rules, the
 * mode and its approver. Each stage can only refuse or pass the call on; none can undo an
 * earlier refusal.
 */
export class Gate {
  private readonly policy: GatePolicy

  constructor(
    policy: Partial<GatePolicy>,
    private readonly approver: Approver,
    private readonly taint: () => Taint = () => cleanTaint
  ) {
    this.policy = { ...defaultPolicy, ...policy }
  }

  /**
   * `onAsking` is told when the decision has come to a person (and only then), so the caller may
   * start deciding the next call while this one waits: the asks of one step are shown together.
   */
  async decide(
    request: GateRequest,
    signal: AbortSignal,
    onAsking?: () => void
  ): Promise<GateDecision> {
    // Shell's temp_scope "system" needs a second decision of its own (see system-temp.ts).
    const forbidden = await systemTempForbidden(request, this.policy)
    if (forbidden) return forbidden
    const decision = await this.decideCall(request, (why, may) =>
      this.askPerson(request, signal, why, may, { onAsking, recheck: true })
    )
    // The second permission is judged by its own rule there, not by `allowedByRuleNow`.
    return decideSystemTemp(request, decision, this.policy, (asked, why, may) =>
      this.askPerson(asked, signal, why, may, { onAsking, recheck: false })
    )
  }

  private async decideCall(request: GateRequest, ask: Ask): Promise<GateDecision> {
    const { tool } = request
    const { policy } = this
    const locked = interlock(this.taint(), tool, policy.blockSendsAfterPrivate)
    if (locked) return { allowed: false, refusedBy: 'interlock', reason: locked }

    // Per call: a Subagent given only read-only tools is read-only, one given Write is not.
    const readOnly = isReadOnlyCall(tool, request.input)
    const changes = changesThings(tool)
    if (policy.planning && !readOnly) {
      return {
        allowed: false,
        refusedBy: 'planning',
        reason: `${changes}, and this session is in planning mode, where only read-only calls run. ${tool.readOnlyFor ? 'Call it with an input that changes nothing in the folder, or propose' : 'Propose'} the change instead; the person will leave planning mode to carry it out.`
      }
    }

    const hooked = await runHooks(policy.hooks, {
      sessionId: request.sessionId,
      workspace: policy.workspace,
      tool: tool.name,
      input: request.input,
      capabilities: tool.capabilities
    })
    if (hooked) return { allowed: false, refusedBy: 'hook', reason: hooked }
    return this.judge(request, ask)
  }

  /** The stages after the hooks: the rules, the mode, and who is asked. */
  private async judge(request: GateRequest, ask: Ask): Promise<GateDecision> {
    const { tool } = request
    const { policy } = this
    const readOnly = isReadOnlyCall(tool, request.input)
    const changes = changesThings(tool)
    const verdict = await this.rules(request)
    if (verdict.decision === 'forbid') {
      return {
        allowed: false,
        refusedBy: 'rule',
        reason: `A permission rule forbids this: ${verdict.reason}. Do not retry it; find another way or ask the person.`
      }
    }
    if (policy.mode === 'read-only' && !readOnly) {
      return {
        allowed: false,
        refusedBy: 'mode',
        reason: `${changes}, and this session is in read-only mode; only read-only tools may run. Ask the person to switch modes if the change is needed.`
      }
    }
    // No rule, mode or --yes covers a write into .git, by a file tool or a shell line (a git
    // subcommand not proven to read, a redirection); only a person can.
    const gitWrite =
      (await gitFolderWrite(tool, request.input, policy.workspace)) ??
      (verdict.gitWrite ? verdict.reason : null)
    if (gitWrite) {
      const escape = tool.escapes?.(request.input)
      const why = escape ? `${gitWrite}; also, ${escape}` : gitWrite
      const asked = await ask(why, { yes: false, rule: false })
      return asked.allowed ? { ...asked, gitWrite: true } : asked
    }
    // Leaving the sandbox gives away what it protects: only a person can, for this one call.
    const escape = tool.escapes?.(request.input)
    if (escape) return ask(escape, { yes: false, rule: false })
    // The memory tools' default ask is no rule of the person's: --yes may answer it.
    if (verdict.decision === 'prompt' && verdict.floor) {
      return ask(verdict.reason, { yes: true })
    }
    if (verdict.decision === 'prompt') {
      return verdict.concern
        ? ask(verdict.reason, { yes: false, rule: false })
        : ask(`a rule asks a person: ${verdict.reason}`, { yes: false })
    }
    if (verdict.decision === 'allow') return { allowed: true, by: 'rule' }
    if (policy.mode === 'allow' || readOnly) return { allowed: true, by: 'mode' }
    if (verdict.uncovered) {
      return ask(`${verdict.reason} (mode "ask")`, {
        yes: true,
        rule: false
      })
    }
    return ask(`${changes} (mode "ask")`, {
      yes: true
    })
  }

  private async rules(request: GateRequest): Promise<RuleVerdict> {
    const rules = this.policy.currentRules ? await this.policy.currentRules() : this.policy.rules
    const command = (request.input as { command?: unknown } | null)?.command
    if (request.tool.name === 'Shell' && typeof command === 'string') {
      return judgeShell(command, rules, request.tool.name, { workspace: this.policy.workspace })
    }
    const verdict = judgeTool(request.tool.name, rules)
    return verdict.decision === null ? (permissionFloor(request.tool) ?? verdict) : verdict
  }

  /**
   * Whether the rules as they are now would allow the call without asking: the interlock and
   * every stage after the hooks are judged again (the hooks already passed it and are not run
   * twice); anything that would still ask a person, or refuse, is a no.
   */
  private async allowedByRuleNow(request: GateRequest): Promise<boolean> {
    try {
      if (interlock(this.taint(), request.tool, this.policy.blockSendsAfterPrivate)) return false
      const wouldAsk: GateDecision = { allowed: false, refusedBy: 'approver', reason: '' }
      const decision = await this.judge(request, async () => wouldAsk)
      return decision.allowed && decision.by === 'rule'
    } catch {
      return false
    }
  }

  /** `may.yes`: --yes answers instead; `may.rule` false: no rule could allow it, so none is offered. */
  private async askPerson(
    request: GateRequest,
    signal: AbortSignal,
    why: string,
    may: { yes: boolean; rule?: false },
    asking: { onAsking?: () => void; recheck: boolean }
  ): Promise<GateDecision> {
    const name = request.tool.name
    if (may.yes && this.policy.autoApprove) return { allowed: true, by: 'yes' }
    if (!this.approver.canAsk) {
      return {
        allowed: false,
        refusedBy: 'approver',
        reason: `${name} needs a person's approval (${why}), and nobody is available to approve it in this headless run. Do not retry; say what you would have done instead.`
      }
    }
    const asked = may.rule === false ? { ...request, ruleCanAllow: false as const } : request
    asking.onAsking?.()
    const options: AskOptions =
      may.rule === false || !asking.recheck
        ? {}
        : { allowedByRule: () => this.allowedByRuleNow(request) }
    const answer = await this.approver.ask(asked, signal, why, options)
    if (answer.decision === 'allow') {
      // The taint may have grown while the person was asked (a sibling sub-agent came back with
      // what it read): the interlock has the last word, whatever the answer.
      const locked = interlock(this.taint(), request.tool, this.policy.blockSendsAfterPrivate)
      if (locked) return { allowed: false, refusedBy: 'interlock', reason: locked }
      return { allowed: true, by: 'approver' }
    }
    const said = answer.reason?.trim()
    return {
      allowed: false,
      refusedBy: 'approver',
      reason: said
        ? `The person denied this ${name} call, saying: ${said}`
        : `The person denied this ${name} call.`
    }
  }
}

function changesThings(tool: Tool): string {
  return tool.readOnlyFor ? `This ${tool.name} call changes things` : `${tool.name} changes things`
}
