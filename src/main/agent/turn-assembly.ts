import { randomUUID } from 'node:crypto'
import type { Settings } from '../../shared/settings'
import { Gate, type Approver } from '../gate/gate'
import { gatePolicy } from '../gate/policy'
import type { PermissionRule } from '../gate/rules'
import { widen, type Taint } from '../gate/taint'
import { compactThreshold, contextWindowFor, outputBudgetBytes } from '../providers/context-window'
import { providerSettingsFor } from '../providers/provider-settings'
import { servedWindowFor } from '../providers/served-context-window'
import { modelRefSupportsImages } from '../providers/model-capabilities'
import { priceForModel } from '../providers/model-price-lookup'
import { modelReasoningFor } from '../providers/thinking'
import type { Catalog } from '../tools/catalog'
import type { TurnServices } from './turn-services'
import type { Session } from './session'
import { systemPrompt } from './system-prompt'
import type { TurnCheckpoints, TurnDeps } from './turn-loop'
import { turnTools } from './turn-tools'

/** Whose rules a gate applies and for which folder its checks run. */
export interface GateTarget {
  /** The folder the calls work in (a parallel branch's copy for its child). */
  workspace: string
  /** The folder whose project rules apply (the parent's, for a child). */
  rulesWorkspace?: string
  sessionRules?: PermissionRule[]
  planning?: boolean
}

/** A child agent's turn: its own session, the parent it answers to, and what it was given. */
export interface ChildTurn {
  parent: Session
  child: Session
  /** Exactly the tools it was granted. */
  catalog: Catalog
  /** Extra system text: who the child is, and the answer shape. */
  brief: string
  approver: Approver
  /** What the gate counts as entered the child's conversation (its parent's included, live). */
  taint: () => Taint
}

/**
 * The one place a turn is put together from a session, the settings of this moment and the
 * core's services: its tools (filtered by the settings, the profile and planning mode), its
 * gate, its output budget, compaction, instructions and provider. Nothing here is kept between
 * turns, so a change in Settings applies from the next one.
 */
export class TurnAssembler {
  constructor(readonly services: TurnServices) {}

  /** What the next turn of a session needs; throws a sentence when it cannot start. */
  async forSession(session: Session, turnId: string = randomUUID()): Promise<TurnDeps> {
    const settings = this.services.settings()
    // A session made before any model was set up (first start, or while the settings file was
    // broken) takes the default model once there is one, rather than failing every message.
    if (!session.model && settings.default_model) {
      const { provider, model } = settings.default_model
      session.model = { providerId: provider, model }
    }
    const provider = this.services.providers.providerFor(session.model, settings)
    // Made before the sandbox has answered its self-test: the turn waits for it only before it
    // judges a call (`settle`), not before its first request.
    const tools = turnTools(await this.services.tools.forTurn(session.workspace, settings), {
      profile: session.profile,
      planning: session.planning,
      disclosed: session.disclosed,
      disclosable: settings.disclosable_tools
    })
    const gate = await this.gate(
      settings,
      { workspace: session.workspace, sessionRules: session.rules, planning: session.planning },
      this.services.approver,
      () => session.taint
    )
    const system = await this.system(session)
    projectInstructionsIn(session)
    return {
      ...(await this.budgets(session, settings)),
      provider,
      price: priceForModel(session.model, settings),
      catalog: tools.catalog,
      offered: tools.offered,
      refuse: tools.refuse,
      gate,
      system,
      checkpoints: this.checkpointer(session, turnId),
      settle: () => this.services.tools.settle(settings)
    }
  }

  /** What a child agent's turn needs: its parent's rules, compaction and instructions. */
  async forChild(turn: ChildTurn): Promise<TurnDeps> {
    const settings = this.services.settings()
    const { parent, child } = turn
    const provider = this.services.providers.providerFor(child.model, settings)
    const gate = await this.gate(
      settings,
      {
        workspace: child.workspace,
        rulesWorkspace: parent.workspace,
        sessionRules: parent.rules,
        planning: parent.planning
      },
      turn.approver,
      turn.taint
    )
    return {
      ...(await this.budgets(child, settings)),
      provider,
      price: priceForModel(child.model, settings),
      catalog: turn.catalog,
      gate,
      system: await this.system(child, turn.brief)
    }
  }

  /** How a session's turns checkpoint its folder (a child's copy is never checkpointed). */
  private checkpointer(session: Session, turnId: string): TurnCheckpoints | undefined {
    const checkpoints = this.services.checkpoints
    if (!checkpoints) return undefined
    const { workspace, id: sessionId } = session
    return {
      before: async () => {
        const taken = await checkpoints.tryTake(
          workspace,
          `before the first change of turn ${turnId}`,
          sessionId
        )
        if (taken && 'failed' in taken) console.warn(`Mecatl: not checkpointed: ${taken.failed}`)
        return taken && 'ok' in taken ? taken.ok.id : null
      },
      after: (callName) => checkpoints.filesAfter(workspace, `after ${callName}`, sessionId, 'call')
    }
  }

  /** The tools and gate of one call outside any session (`mecatl call`). */
  async forCall(workspace: string): Promise<{ catalog: Catalog; gate: Gate }> {
    const settings = this.services.settings()
    return {
      catalog: await this.services.tools.forWorkspace(workspace, settings),
      gate: await this.gate(settings, { workspace }, this.services.approver)
    }
  }

  /** The built-in and MCP tools of a folder under the settings in force. */
  async toolsFor(workspace: string): Promise<Catalog> {
    return this.services.tools.forWorkspace(workspace, this.services.settings())
  }

  private async gate(
    settings: Settings,
    target: GateTarget,
    approver: Approver,
    taint?: () => Taint
  ): Promise<Gate> {
    const book = this.services.rules
    const scope = {
      workspace: target.rulesWorkspace ?? target.workspace,
      sessionRules: target.sessionRules
    }
    // Read afresh for every call too: a rule saved while the turn runs applies to its next call.
    const currentRules = book ? () => book.effective(scope) : undefined
    const policy = gatePolicy(settings, {
      workspace: target.workspace,
      modeOverride: this.services.launch.modeOverride,
      sessionRules: target.sessionRules,
      rules: await currentRules?.(),
      currentRules,
      autoApprove: this.services.launch.autoApprove,
      planning: target.planning
    })
    return new Gate(policy, approver, taint)
  }

  private async budgets(
    session: Session,
    settings: Settings
  ): Promise<
    Pick<
      TurnDeps,
      | 'model'
      | 'maxTokens'
      | 'outputBudgetBytes'
      | 'compactAt'
      | 'modelSupportsImages'
      | 'providerIdleMs'
      | 'retry'
      | 'contextLimit'
      | 'reasoning'
    >
  > {
    const ref = session.model
    // A local server's own window beats the table: Ollama serves 4096 tokens of a 128k model.
    const served = ref ? await servedWindowFor(providerSettingsFor(ref, settings), ref.model) : null
    return {
      model: session.model?.model ?? '',
      maxTokens: settings.max_tokens,
      outputBudgetBytes: outputBudgetBytes(session.model, settings, served?.tokens),
      compactAt: compactThreshold(session.model, settings, served?.tokens),
      ...(ref && served
        ? {
            contextLimit: {
              tokens: contextWindowFor(ref, settings, served.tokens),
              raise: served.raise
            }
          }
        : {}),
      modelSupportsImages: modelRefSupportsImages(session.model, settings),
      providerIdleMs: settings.provider_idle_timeout_s * 1000,
      retry: { maxRetries: settings.provider_max_retries, baseMs: settings.provider_retry_base_ms },
      ...modelReasoningFor(ref, settings)
    }
  }

  /** The system prompt: Mecatl's, the folder's and the person's instructions, then `extra`. */
  private async system(session: Session, extra = ''): Promise<string> {
    // Re-read every turn, so an edit of AGENTS.md applies from the next message.
    const instructions = (await session.instructions.refresh()).loaded.text
    return [systemPrompt(session.workspace), instructions, extra].filter(Boolean).join('\n\n')
  }
}

/**
 * The folder's AGENTS.md and CLAUDE.md were just read into this turn's prompt. In a folder that is
 * not trusted they are its content like any file Read returns: private (a link can make them any
 * file the person can read) and untrusted, so the conversation is armed before any tool runs.
 */
function projectInstructionsIn(session: Session): void {
  if (session.folderTrusted) return
  if (!session.instructions.files().some((file) => file.origin === 'project')) return
  session.taint = widen(session.taint, {
    privateData: true,
    untrustedInput: true,
    egress: 'none',
    destructive: false
  })
}
