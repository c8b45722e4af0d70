import { randomUUID } from 'node:crypto'
import path from 'node:path'
import type { ModelRef, SessionSummary, TodoItem, TranscriptItem } from '../../shared/domain'
import type { SessionProfile } from '../../shared/session-profile'
import type { ChatMessage } from '../providers/provider'
import type { PermissionRule } from '../gate/rules'
import { cleanTaint, type Taint } from '../gate/taint'
import { BranchTree } from './branch-tree'
import { TodoBoard } from '../tools/todo/todo-board'
import { SessionInstructions } from '../skills/instructions'
import { SessionSkills } from '../skills/session-skills'
import { userConfigDir } from '../skills/user-dir'
import { PathJail } from '../workspace/path-jail'
import { ReadVersions } from '../workspace/read-versions'
import { SpillStore } from '../workspace/spill'
import { totalsOf } from '../../shared/meters'

const TITLE_LENGTH = 60

export interface SessionOptions {
  /** Where sessions save cut tool outputs; this session uses `<spillRoot>/<id>`. */
  spillRoot: string
  /** Told of every change to the session's plan. */
  onTodos?: (sessionId: string, items: TodoItem[]) => void
  /** The person's folder of instructions and skills (`userConfigDir()` when not given). */
  userDir?: string
  now?: number
  /** A stored session's id, when it is loaded back; new sessions get a fresh one. */
  id?: string
  /**
   * Whether the person trusts the folder's authors, as it stood when the session was made. Not
   * trusted, what the session reads from the folder is untrusted input (see folder-content.ts).
   */
  folderTrusted: boolean
}

/** One conversation in one project folder: its history for the model and its transcript. */
export class Session {
  readonly id: string
  readonly workspace: string
  readonly jail: PathJail
  readonly spill: SpillStore
  readonly todos: TodoBoard
  readonly reads = new ReadVersions()
  /** Skills loaded in this session; they stay loaded across a compaction. */
  readonly skills: SessionSkills
  /** AGENTS.md and CLAUDE.md, re-read before each turn. */
  readonly instructions: SessionInstructions
  readonly history: ChatMessage[] = []
  readonly createdAt: number
  title = 'New session'
  updatedAt: number
  model: ModelRef | null
  /** Set while a turn runs; aborting it stops the turn. */
  controller: AbortController | null = null
  /** What has entered the conversation; only ever widens. */
  taint: Taint = cleanTaint
  /** Planning mode: only read-only tools are offered and run. */
  planning = false
  /** The session this one was forked from, if it was. */
  forkedFrom: string | null = null
  /** What the session may touch; fixed at creation (`no-fs`: no file, shell or delegation tools). */
  profile: SessionProfile = 'default'
  /** Fixed at creation, except that it is lost when the person distrusts the folder. */
  private trusted: boolean
  /** Held-back tools the model has found with ToolSearch; sent to it from then on. */
  readonly disclosed = new Set<string>()
  /** Input tokens of the latest model request: past the threshold, the next one compacts first. */
  inputTokens = 0
  /** Rules the person made for this session only ("Always allow" in this session). */
  readonly rules: PermissionRule[] = []
  /** Every item of every branch, in the order they came; `transcript()` is the branch shown. */
  private readonly items: TranscriptItem[] = []
  private readonly positions = new Map<string, number>()
  /** The conversation's branches (edited messages) and which one is shown. */
  private branches = new BranchTree()

  constructor(workspace: string, model: ModelRef | null, options: SessionOptions) {
    const now = options.now ?? Date.now()
    this.id = options.id ?? randomUUID()
    this.spill = new SpillStore(path.join(options.spillRoot, this.id))
    this.jail = new PathJail(workspace, { spillDir: this.spill.dir })
    this.todos = new TodoBoard((items) => options.onTodos?.(this.id, items))
    this.workspace = this.jail.root
    this.skills = new SessionSkills((dir) => this.jail.allowRead(dir))
    this.instructions = new SessionInstructions(this.workspace, options.userDir ?? userConfigDir())
    this.model = model
    this.createdAt = now
    this.updatedAt = now
    this.trusted = options.folderTrusted
    if (!this.trusted) this.markFolderUntrusted()
  }

  /** Whether the folder's content counts as the person's own in this session. */
  get folderTrusted(): boolean {
    return this.trusted
  }

  /**
   * The folder is not (or no longer) trusted: from now on what is read from it is untrusted
   * input, and the conversation already holds some, since the folder's AGENTS.md, CLAUDE.md,
   * skills and commands reach the model without a tool call. Trust is never given back.
   */
  markFolderUntrusted(): void {
    this.trusted = false
    this.taint = { ...this.taint, untrustedInput: true }
  }

  get running(): boolean {
    return this.controller !== null
  }

  /**
   * Whether it holds what its record cannot give back: rules for this session only, tools found
   * with ToolSearch, skills loaded. Such a session stays in memory (see SessionService).
   */
  holdsUnrecorded(): boolean {
    return this.rules.length > 0 || this.disclosed.size > 0 || this.skills.names().length > 0
  }

  /**
   * Adds a transcript item, at the end of the branch shown (a user message to the branch its
   * `parent` names), or replaces the one with the same key (a call changing state).
   */
  upsert(item: TranscriptItem): void {
    const key = transcriptKey(item)
    const at = this.positions.get(key)
    if (at === undefined) {
      this.positions.set(key, this.items.length)
      this.items.push(item)
      this.branches.place(key, item)
    } else {
      this.items[at] = item
    }
    this.updatedAt = Date.now()
    if (item.kind === 'user' && this.title === 'New session') this.title = titleFrom(item.text)
  }

  /** A recorded session's items with their branches, as the log left them (see rehydrate). */
  adopt(items: readonly TranscriptItem[], branches: BranchTree): void {
    this.branches = branches
    for (const item of items) {
      const key = transcriptKey(item)
      if (!this.positions.has(key)) {
        this.positions.set(key, this.items.length)
        this.items.push(item)
      }
    }
  }

  /** The conversation as shown: the items of the branch shown, in the order they came. */
  transcript(): TranscriptItem[] {
    return this.shown().map((item) => structuredClone(item))
  }

  /** The newest `tail` items of the branch shown (all for Infinity), and how many it holds. */
  transcriptTail(tail: number): { items: TranscriptItem[]; total: number } {
    const shown = this.shown()
    return { items: shown.slice(-tail).map((item) => structuredClone(item)), total: shown.length }
  }

  private shown(): TranscriptItem[] {
    const path = new Set(this.branches.path())
    return this.items.filter((item) => this.branches.shows(transcriptKey(item), path))
  }

  /** The user message at the end of the branch shown (what a new message follows). */
  tip(): string | null {
    return this.branches.tip()
  }

  /** The message an edit of `key` would follow, or undefined when `key` is no user message. */
  parentOf(key: string): string | null | undefined {
    return this.branches.parentOf(key)
  }

  /** Shows the branch of the user message `key`; the choice to record, or null if unknown. */
  choose(key: string): { parent: string | null; child: string } | null {
    return this.branches.choose(key) ? this.branches.choiceOf(key) : null
  }

  /** The messages shown that have other versions, with their versions. */
  branchPoints(): ReturnType<BranchTree['branchPoints']> {
    return this.branches.branchPoints()
  }

  summary(): SessionSummary {
    return {
      id: this.id,
      workspace: this.workspace,
      title: this.title,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      messageCount: this.shown().filter((i) => i.kind === 'user' || i.kind === 'assistant').length,
      model: this.model,
      running: this.running,
      taint: { ...this.taint },
      planning: this.planning,
      forkedFrom: this.forkedFrom,
      ...(this.profile === 'default' ? {} : { profile: this.profile }),
      ...(this.trusted ? {} : { folderTrust: 'untrusted' as const }),
      // Every branch's turns: a turn left on another branch was paid for all the same.
      totals: totalsOf(this.items)
    }
  }
}

export function transcriptKey(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user':
    case 'assistant':
      return `${item.kind}:${item.id}`
    case 'tool':
      return `tool:${item.call.id}`
    case 'turn-end':
      return `turn-end:${item.turnId}`
    case 'compaction':
      return `compaction:${item.id}`
    case 'restore':
      return `restore:${item.id}`
  }
}

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? ''
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line || 'New session'
}
