import { randomUUID } from 'node:crypto'
import { RpcError } from '../../shared/contract'
import type { ApprovalMode, ModelRef, SessionSummary, TodoItem } from '../../shared/domain'
import type { SessionProfile } from '../../shared/session-profile'
import type { Settings } from '../../shared/settings'
import { Gate, type Approver } from '../gate/gate'
import { gatePolicy } from '../gate/policy'
import type { RuleBook } from '../gate/rule-book'
import { compactThreshold, outputBudgetBytes } from '../providers/context-window'
import { modelRefSupportsImages } from '../providers/model-capabilities'
import { createProvider, type KeySource } from '../providers/create-provider'
import type { Provider } from '../providers/provider'
import type { EventHub } from '../rpc/event-hub'
import type { Catalog } from '../tools/catalog'
import type { SessionStore } from '../store/session-store'
import { Session } from './session'
import { historyFromTranscript, rehydrate } from './session-rehydrate'
import { systemPrompt } from './system-prompt'
import { recordedProfile } from './session-profile-record'
import { turnTools } from './turn-tools'
import { describeFailure, runTurn } from './turn-loop'

export interface SessionServiceDeps {
  hub: EventHub
  /** Every scope's permission rules; a session's own rules live on the session. */
  rules?: RuleBook
  catalog: Catalog
  /** The tools of a project folder (built-ins plus its MCP servers'); else `catalog`. */
  catalogFor?: (workspace: string) => Promise<Catalog>
  approver: Approver
  keys: KeySource
  settings: () => Promise<Settings>
  /** Where sessions save tool outputs cut to the turn's budget: `<dataDir>/spill`. */
  spillRoot: string
  /** A mode forced from the command line wins over the settings file. */
  modeOverride?: ApprovalMode
  /** `--yes`: allow what the mode would ask about (never a prompt rule or the interlock). */
  autoApprove?: boolean
  /** The model new sessions start with, instead of the settings' default (CLI flags). */
  defaultModel?: ModelRef
  /**
   * A provider from outside the settings file (CLI flags, tests); when it answers null, one is
   * built from settings per turn.
   */
  providerFor?: (ref: ModelRef, settings: Settings) => Provider | null
  /** The person's folder of instructions and skills (MECATL_HOME or ~/.config/mecatl). */
  userDir?: string
  /** Where sessions are recorded; without it (some tests) they live only in memory. */
  store?: SessionStore
}

/** Holds the sessions of every open project and runs their turns. */
export class SessionService {
  private readonly sessions = new Map<string, Session>()
  private readonly running = new Map<string, Promise<void>>()
  /** Sessions being loaded back: their restored plan is not news to record again. */
  private readonly restoring = new Set<string>()

  constructor(private readonly deps: SessionServiceDeps) {}

  list(workspace: string): Session[] {
    return [...this.sessions.values()]
      .filter((s) => s.workspace === workspace)
      .sort((a, b) => b.updatedAt - a.updatedAt)
  }

  /** Every session of a folder, the stored ones with the live ones, latest activity first. */
  summaries(workspace: string): SessionSummary[] {
    const live = this.list(workspace)
    const stored = this.deps.store?.list(workspace) ?? []
    // Sizes come from the store: a live summary does not know what has been recorded of it.
    const sizes = new Map(stored.map((s) => [s.id, s.sizeBytes]))
    const merged: SessionSummary[] = live.map((s) => ({
      ...s.summary(),
      sizeBytes: sizes.get(s.id)
    }))
    const seen = new Set(live.map((s) => s.id))
    for (const s of stored) if (!seen.has(s.id)) merged.push(s)
    return merged.sort((a, b) => b.updatedAt - a.updatedAt)
  }

  /** Forgets a session that is not running (after it was deleted from the store). */
  drop(sessionId: string): void {
    if (this.sessions.get(sessionId)?.running) {
      throw new RpcError('conflict', 'this session is running a turn; stop it before deleting it')
    }
    this.sessions.delete(sessionId)
  }

  async create(workspace: string, profile: SessionProfile = 'default'): Promise<Session> {
    const settings = await this.deps.settings()
    const fromSettings = settings.default_model
      ? { providerId: settings.default_model.provider, model: settings.default_model.model }
      : null
    const model = this.deps.defaultModel ?? fromSettings
    const session = new Session(workspace, model, {
      spillRoot: this.deps.spillRoot,
      onTodos: (sessionId, items) => this.todosChanged(sessionId, items),
      userDir: this.deps.userDir
    })
    session.profile = profile
    // Read at the start; each turn re-reads them, so an edit applies from the next message.
    await session.instructions.refresh()
    this.sessions.set(session.id, session)
    this.deps.hub.emit('session.updated', session.summary())
    return session
  }

  get(sessionId: string): Session {
    const session = this.sessions.get(sessionId) ?? this.load(sessionId)
    if (!session) throw new RpcError('not_found', `there is no session ${sessionId}`)
    return session
  }

  /**
   * A recorded session loaded back, so it can be shown and continued: its transcript (an
   * interrupted turn marked so), the model's history rebuilt from it, its plan and its taint.
   */
  private load(sessionId: string): Session | undefined {
    const stored = this.deps.store?.get(sessionId)
    if (!stored) return undefined
    const events = this.deps.store?.events(sessionId) ?? []
    const { transcript, todos } = rehydrate(events)
    const session = new Session(stored.workspace, stored.model, {
      spillRoot: this.deps.spillRoot,
      onTodos: (id, items) => this.todosChanged(id, items),
      userDir: this.deps.userDir,
      id: stored.id,
      now: stored.createdAt
    })
    for (const item of transcript) session.upsert(item)
    session.history.push(...historyFromTranscript(transcript))
    session.title = stored.title
    session.updatedAt = stored.updatedAt
    session.taint = stored.taint ?? session.taint
    session.planning = stored.planning ?? false
    session.forkedFrom = stored.forkedFrom
    session.profile = recordedProfile(events)
    this.restoring.add(session.id)
    try {
      session.todos.replace(todos)
    } finally {
      this.restoring.delete(session.id)
    }
    this.sessions.set(session.id, session)
    return session
  }

  private todosChanged(sessionId: string, items: TodoItem[]): void {
    if (!this.restoring.has(sessionId)) this.deps.hub.emit('todo.updated', { sessionId, items })
  }

  /** Planning mode takes effect from the next turn: the model is then offered read-only tools. */
  setPlanning(sessionId: string, planning: boolean): Session {
    const session = this.get(sessionId)
    session.planning = planning
    this.deps.hub.emit('session.updated', session.summary())
    return session
  }

  setModel(sessionId: string, model: ModelRef): Session {
    const session = this.get(sessionId)
    session.model = model
    this.deps.hub.emit('session.updated', session.summary())
    return session
  }

  /** Starts a turn and returns at once; progress arrives as events. */
  async send(sessionId: string, text: string): Promise<string> {
    const session = this.get(sessionId)
    if (session.running) {
      throw new RpcError('conflict', 'a turn is already running in this session; wait or stop it')
    }
    const turnId = randomUUID()
    this.retryRecording(session)
    const controller = new AbortController()
    session.controller = controller
    const done = this.startTurn(session, turnId, text, controller.signal).finally(() => {
      session.controller = null
      this.running.delete(session.id)
      this.deps.hub.emit('session.updated', session.summary())
    })
    this.running.set(session.id, done)
    return turnId
  }

  /**
   * A new turn tries the store again (the disk may have room now): the last failure is
   * forgotten, and a session whose row could not be saved at its start gets it now, or is
   * marked again so the turn stops at once.
   */
  private retryRecording(session: Session): void {
    const store = this.deps.store
    if (!store) return
    store.clearRecordingFailure(session.id)
    if (store.get(session.id)) return
    try {
      store.saveSummary(session.summary())
    } catch {
      // Marked by the store; the turn reads it and says why.
    }
  }

  cancel(sessionId: string): boolean {
    const session = this.get(sessionId)
    if (!session.controller) return false
    session.controller.abort()
    return true
  }

  /** Resolves when the session's current turn (if any) has finished. */
  async idle(sessionId: string): Promise<void> {
    await this.running.get(sessionId)
  }

  async dispose(): Promise<void> {
    for (const session of this.sessions.values()) session.controller?.abort()
    await Promise.allSettled(this.running.values())
  }

  private async startTurn(
    session: Session,
    turnId: string,
    text: string,
    signal: AbortSignal
  ): Promise<void> {
    const settings = await this.deps.settings()
    let provider: Provider
    try {
      provider = this.provider(session, settings)
    } catch (error) {
      this.deps.hub.emit('turn.started', { sessionId: session.id, turnId })
      const message = describeFailure(error)
      const asked = { kind: 'user' as const, id: randomUUID(), text, at: Date.now() }
      session.upsert(asked)
      this.deps.hub.emit('transcript.item', { sessionId: session.id, item: asked })
      const end = {
        kind: 'turn-end' as const,
        turnId,
        usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
        stopReason: 'error',
        error: message,
        at: Date.now()
      }
      session.upsert(end)
      this.deps.hub.emit('transcript.item', { sessionId: session.id, item: end })
      this.deps.hub.emit('turn.failed', { sessionId: session.id, turnId, error: message })
      return
    }
    const instructions = (await session.instructions.refresh()).loaded.text
    const tools = turnTools(
      this.deps.catalogFor ? await this.deps.catalogFor(session.workspace) : this.deps.catalog,
      {
        profile: session.profile,
        planning: session.planning,
        disclosed: session.disclosed,
        disclosable: settings.disclosable_tools
      }
    )
    const ruleBook = this.deps.rules
    await runTurn(
      session,
      turnId,
      text,
      {
        provider,
        model: session.model?.model ?? '',
        catalog: tools.catalog,
        offered: tools.offered,
        refuse: tools.refuse,
        gate: new Gate(
          gatePolicy(settings, {
            workspace: session.workspace,
            modeOverride: this.deps.modeOverride,
            sessionRules: session.rules,
            rules: await this.deps.rules?.effective({
              workspace: session.workspace,
              sessionRules: session.rules
            }),
            currentRules: ruleBook
              ? () =>
                  ruleBook.effective({ workspace: session.workspace, sessionRules: session.rules })
              : undefined,
            autoApprove: this.deps.autoApprove,
            planning: session.planning
          }),
          this.deps.approver,
          () => session.taint
        ),
        hub: this.deps.hub,
        system: [systemPrompt(session.workspace), instructions].filter(Boolean).join('\n\n'),
        maxTokens: settings.max_tokens,
        outputBudgetBytes: outputBudgetBytes(session.model, settings),
        compactAt: compactThreshold(session.model, settings),
        modelSupportsImages: modelRefSupportsImages(session.model, settings),
        recordingFailure: () => this.deps.store?.recordingFailure(session.id) ?? null,
        providerIdleMs: settings.provider_idle_timeout_s * 1000
      },
      signal
    )
  }

  private provider(session: Session, settings: Settings): Provider {
    // A session made before any model was set up (first start, or while the settings file was
    // broken) takes the default model once there is one, rather than failing every message.
    if (!session.model && settings.default_model) {
      const { provider, model } = settings.default_model
      session.model = { providerId: provider, model }
    }
    const ref = session.model
    if (!ref) {
      throw new Error(
        'No model is chosen for this session: add a provider in Settings and pick a default model.'
      )
    }
    const given = this.deps.providerFor?.(ref, settings)
    if (given) return given
    const config = settings.providers.find((p) => p.id === ref.providerId)
    if (!config) {
      throw new Error(
        `The provider "${ref.providerId}" chosen for this session is no longer in Settings; pick another model.`
      )
    }
    return createProvider(config, this.deps.keys)
  }
}
