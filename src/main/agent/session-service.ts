import { randomUUID } from 'node:crypto'
import type { Attachment } from '../../shared/attachments'
import { RpcError } from '../../shared/contract'
import type { ModelRef, SessionSummary, TodoItem, TranscriptItem } from '../../shared/domain'
import { emptyTotals, type SessionTotals } from '../../shared/meters'
import type { SessionProfile } from '../../shared/session-profile'
import type { StoredEvent, StoredSession } from '../store/session-store'
import type { BranchSiblings } from './branch-tree'
import type { TurnServices } from './turn-services'
import { recordedUntrustedFolder } from './folder-content'
import { Session, transcriptKey } from './session'
import { peekSession } from './session-peek'
import { BRANCH_CHOSEN, historyFromTranscript, rehydrate } from './session-rehydrate'
import { recordedProfile } from './session-profile-record'
import type { TurnAssembler } from './turn-assembly'
import { runTurn, type TurnRequest } from './turn-loop'
import { sessionSink } from './turn-sink'

/** What a window shows of a session (see SessionService.view). */
export interface SessionView {
  summary: SessionSummary
  transcript: TranscriptItem[]
  /** How many items the branch shown holds. */
  total: number
  todos: TodoItem[]
  branches: BranchSiblings[]
}

/**
 * Idle sessions held in memory: past this many, the ones used longest ago are let go and read
 * back from the store when next used (see releaseIdle).
 */
export const KEPT_IDLE_SESSIONS = 8

/** Holds the sessions of every open project and runs their turns. */
export class SessionService {
  /** Least recently used first (see hold). */
  private readonly sessions = new Map<string, Session>()
  private readonly running = new Map<string, Promise<void>>()
  /** Sessions being loaded back: their restored plan is not news to record again. */
  private readonly restoring = new Set<string>()
  /** When the person last stopped trusting each folder in this run (see restored). */
  private readonly distrusted = new Map<string, number>()

  private readonly services: TurnServices

  constructor(
    private readonly turns: TurnAssembler,
    /** Whether work started by a session still runs without a turn (background sub-agents). */
    private readonly busy: (sessionId: string) => boolean = () => false
  ) {
    this.services = turns.services
  }

  list(workspace: string): Session[] {
    return [...this.sessions.values()]
      .filter((s) => s.workspace === workspace)
      .sort((a, b) => b.updatedAt - a.updatedAt)
  }

  /** Every session of a folder, the stored ones with the live ones, latest activity first. */
  summaries(workspace: string): SessionSummary[] {
    const live = this.list(workspace)
    const stored = this.services.store?.list(workspace) ?? []
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
    const settings = this.services.settings()
    const fromSettings = settings.default_model
      ? { providerId: settings.default_model.provider, model: settings.default_model.model }
      : null
    const model = this.services.launch.defaultModel ?? fromSettings
    const session = new Session(workspace, model, {
      spillRoot: this.services.spillRoot,
      onTodos: (sessionId, items) => this.todosChanged(sessionId, items),
      userDir: this.services.userDir,
      // As the folder stands now: trusting it later applies from the next session.
      folderTrusted: await this.services.trust.isTrusted(workspace)
    })
    session.profile = profile
    // Read at the start; each turn re-reads them, so an edit applies from the next message.
    await session.instructions.refresh()
    this.hold(session)
    this.services.hub.emit('session.updated', session.summary())
    return session
  }

  get(sessionId: string): Session {
    const session = this.sessions.get(sessionId) ?? this.load(sessionId)
    if (!session) throw new RpcError('not_found', `there is no session ${sessionId}`)
    return this.hold(session)
  }

  /** Whether the session is held in memory now (see releaseIdle). */
  isHeld(sessionId: string): boolean {
    return this.sessions.has(sessionId)
  }

  /** Holds the session as the one used last; a new one may send the longest unused away. */
  private hold(session: Session): Session {
    const known = this.sessions.delete(session.id)
    this.sessions.set(session.id, session)
    if (!known) this.releaseIdle(session)
    return session
  }

  /**
   * Past KEPT_IDLE_SESSIONS idle sessions, lets go of those used longest ago, so a long day does
   * not keep every conversation it touched: each is read back from the store when next used, as
   * after a restart (the model reads a file again before it edits it). A session stays while it
   * runs a turn or background work, when it holds what its record cannot give back (see
   * holdsUnrecorded), or when its record is not in the store; `held`, just used, stays too.
   */
  private releaseIdle(held: Session | null = null): void {
    const store = this.services.store
    const idle = [...this.sessions.values()].filter((session) => !session.running)
    let over = idle.length - KEPT_IDLE_SESSIONS
    for (const session of idle) {
      if (over <= 0 || !store) return
      const kept =
        session === held ||
        this.busy(session.id) ||
        session.holdsUnrecorded() ||
        !store.get(session.id) ||
        store.recordingFailure(session.id) !== null
      if (kept) continue
      this.sessions.delete(session.id)
      over--
    }
  }

  /**
   * What a window shows of a session: the newest `tail` items of the branch shown (all of them
   * without a tail), how many it holds, its summary, plan and branch points. A recorded session
   * not loaded yet is peeked at (see peekSession): its first screen comes without reading the
   * whole log, which is read when the session is used (a send, the whole transcript).
   */
  view(sessionId: string, tail = Infinity): SessionView {
    const store = this.services.store
    if (!this.sessions.has(sessionId) && Number.isFinite(tail) && store) {
      const stored = store.get(sessionId)
      const peek = stored ? peekSession(store, sessionId, tail) : null
      if (stored && peek) {
        const { transcript, total, todos, branches, messageCount, totals } = peek
        // Built as a load builds it, so the summary is the one the loaded session will give.
        const summary = { ...this.restored(stored, peek.updates).summary(), messageCount, totals }
        return { summary, transcript, total, todos, branches }
      }
    }
    const session = this.get(sessionId)
    const { items, total } = session.transcriptTail(tail)
    const [summary, todos, branches] = [
      session.summary(),
      session.todos.items(),
      session.branchPoints()
    ]
    return { summary, transcript: items, total, todos, branches }
  }

  /**
   * What the meters read of a session: its model, the input tokens of its latest request (0: none
   * in this run) and its totals. A recorded session not loaded yet is not loaded for them: its
   * totals come from its turn ends in the store, which add up as the loaded session's do.
   */
  meterReading(sessionId: string): {
    model: ModelRef | null
    inputTokens: number
    totals: SessionTotals
  } {
    const store = this.services.store
    const stored = this.sessions.has(sessionId) ? null : store?.get(sessionId)
    if (store && stored)
      return { model: stored.model, inputTokens: 0, totals: store.totals(sessionId) }
    const session = this.get(sessionId)
    const totals = session.summary().totals ?? emptyTotals()
    return { model: session.model, inputTokens: session.inputTokens, totals }
  }

  /**
   * A recorded session loaded back, so it can be shown and continued: its transcript (an
   * interrupted turn marked so), the model's history rebuilt from it, its plan and its taint.
   */
  private load(sessionId: string): Session | undefined {
    const stored = this.services.store?.get(sessionId)
    if (!stored) return undefined
    const events = this.services.store?.events(sessionId) ?? []
    const { transcript, items, branches, todos } = rehydrate(events)
    const session = this.restored(stored, events)
    session.adopt(items, branches)
    session.history.push(...historyFromTranscript(transcript))
    this.restoring.add(session.id)
    try {
      session.todos.replace(todos)
    } finally {
      this.restoring.delete(session.id)
    }
    return session
  }

  /** A recorded session as its row and its events other than items left it, yet empty. */
  private restored(stored: StoredSession, events: readonly StoredEvent[]): Session {
    const session = new Session(stored.workspace, stored.model, {
      spillRoot: this.services.spillRoot,
      onTodos: (id, items) => this.todosChanged(id, items),
      userDir: this.services.userDir,
      id: stored.id,
      now: stored.createdAt,
      folderTrusted: !recordedUntrustedFolder(events)
    })
    session.title = stored.title
    session.updatedAt = stored.updatedAt
    session.taint = stored.taint ?? session.taint
    if (!session.folderTrusted) session.markFolderUntrusted()
    // Made before the person stopped trusting its folder, while it was not held: as the held ones.
    const distrustedAt = this.distrusted.get(session.workspace) ?? -Infinity
    if (stored.createdAt <= distrustedAt) session.markFolderUntrusted()
    session.planning = stored.planning ?? false
    session.forkedFrom = stored.forkedFrom
    session.profile = recordedProfile(events)
    return session
  }

  private todosChanged(sessionId: string, items: TodoItem[]): void {
    if (!this.restoring.has(sessionId)) this.services.hub.emit('todo.updated', { sessionId, items })
  }

  /**
   * The person no longer trusts the folder: its open sessions count what they read from it as
   * untrusted at once (a widening; trusting a folder applies only to sessions made afterwards).
   */
  distrustFolder(workspace: string): void {
    this.distrusted.set(workspace, Date.now())
    for (const session of this.list(workspace)) {
      if (!session.folderTrusted) continue
      session.markFolderUntrusted()
      this.services.hub.emit('session.updated', session.summary())
    }
  }

  /** Planning mode takes effect from the next turn: the model is then offered read-only tools. */
  setPlanning(sessionId: string, planning: boolean): Session {
    const session = this.get(sessionId)
    session.planning = planning
    this.services.hub.emit('session.updated', session.summary())
    return session
  }

  setModel(sessionId: string, model: ModelRef): Session {
    const session = this.get(sessionId)
    session.model = model
    this.services.hub.emit('session.updated', session.summary())
    return session
  }

  /**
   * Untrusted input comes in with the person's next message: a `/skill` written in a conversation
   * that held some is expanded into it. Marked before the turn starts, so its first call is
   * judged with it.
   */
  admitUntrusted(sessionId: string): void {
    const session = this.get(sessionId)
    if (session.taint.untrustedInput) return
    session.taint = { ...session.taint, untrustedInput: true }
    this.services.hub.emit('session.updated', session.summary())
  }

  /** Starts a turn and returns at once; progress arrives as events. */
  async send(
    sessionId: string,
    text: string,
    attachments: readonly Attachment[] = []
  ): Promise<string> {
    const session = this.idleSession(sessionId, 'a turn is already running in this session')
    return this.start(session, { turnId: randomUUID(), text, attachments, parent: session.tip() })
  }

  /**
   * Sends `text` as a new version of the user message `itemKey`: a new branch from the point
   * before it, shown from now on; the old branch is kept (see BranchTree). The same text again
   * is a regenerate, or a retry of a turn that failed. The message's attachments go again.
   */
  async edit(sessionId: string, itemKey: string, text: string): Promise<string> {
    const session = this.idleSession(sessionId, 'a turn is running in this session')
    const parent = session.parentOf(itemKey)
    const shown = session.transcript()
    const at = shown.findIndex((item) => transcriptKey(item) === itemKey)
    const edited = shown[at]
    if (parent === undefined || edited?.kind !== 'user') {
      throw new RpcError('not_found', `there is no message ${itemKey} shown in this session`)
    }
    // The model sees the conversation up to the message edited, as if it had been sent so.
    session.history.splice(0, session.history.length, ...historyFromTranscript(shown.slice(0, at)))
    const attachments = edited.attachments ?? []
    return this.start(session, { turnId: randomUUID(), text, attachments, parent })
  }

  /** Shows the branch of the user message `itemKey` (one of a message's versions). */
  selectBranch(sessionId: string, itemKey: string): Session {
    const session = this.idleSession(sessionId, 'a turn is running in this session')
    const choice = session.choose(itemKey)
    if (!choice) throw new RpcError('not_found', `there is no message ${itemKey} in this session`)
    this.services.hub.emit(BRANCH_CHOSEN, { sessionId, ...choice })
    const shown = session.transcript()
    session.history.splice(0, session.history.length, ...historyFromTranscript(shown))
    this.services.hub.emit('session.updated', session.summary())
    return session
  }

  private idleSession(sessionId: string, busy: string): Session {
    const session = this.get(sessionId)
    if (session.running) throw new RpcError('conflict', `${busy}; wait or stop it`)
    return session
  }

  private start(session: Session, request: TurnRequest): string {
    this.retryRecording(session)
    const controller = new AbortController()
    session.controller = controller
    const done = this.startTurn(session, request, controller.signal).finally(() => {
      session.controller = null
      this.running.delete(session.id)
      this.services.hub.emit('session.updated', session.summary())
      this.releaseIdle(session)
    })
    this.running.set(session.id, done)
    return request.turnId
  }

  /**
   * A new turn tries the store again (the disk may have room now): the last failure is
   * forgotten, and a session whose row could not be saved at its start gets it now, or is
   * marked again so the turn stops at once.
   */
  private retryRecording(session: Session): void {
    const store = this.services.store
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
    request: TurnRequest,
    signal: AbortSignal
  ): Promise<void> {
    const store = this.services.store
    await runTurn(
      session,
      request,
      () => this.turns.forSession(session, request.turnId),
      sessionSink(session, this.services.hub, () => store?.recordingFailure(session.id) ?? null),
      signal
    )
  }
}
