import { randomUUID } from 'node:crypto'
import type { ModelRef, SessionSummary, TranscriptItem } from '../../shared/domain'
import type { ChatMessage } from '../providers/provider'
import { PathJail } from '../workspace/path-jail'
import { ReadVersions } from '../workspace/read-versions'

const TITLE_LENGTH = 60

/** One conversation in one project folder: its history for the model and its transcript. */
export class Session {
  readonly id: string
  readonly workspace: string
  readonly jail: PathJail
  readonly reads = new ReadVersions()
  readonly history: ChatMessage[] = []
  readonly createdAt: number
  title = 'New session'
  updatedAt: number
  model: ModelRef | null
  /** Set while a turn runs; aborting it stops the turn. */
  controller: AbortController | null = null
  private readonly items: TranscriptItem[] = []
  private readonly positions = new Map<string, number>()

  constructor(workspace: string, model: ModelRef | null, now = Date.now()) {
    this.id = randomUUID()
    this.jail = new PathJail(workspace)
    this.workspace = this.jail.root
    this.model = model
    this.createdAt = now
    this.updatedAt = now
  }

  get running(): boolean {
    return this.controller !== null
  }

  /** Adds a transcript item, or replaces the one with the same key (a call changing state). */
  upsert(item: TranscriptItem): void {
    const key = transcriptKey(item)
    const at = this.positions.get(key)
    if (at === undefined) {
      this.positions.set(key, this.items.length)
      this.items.push(item)
    } else {
      this.items[at] = item
    }
    this.updatedAt = Date.now()
    if (item.kind === 'user' && this.title === 'New session') this.title = titleFrom(item.text)
  }

  transcript(): TranscriptItem[] {
    return this.items.map((item) => structuredClone(item))
  }

  summary(): SessionSummary {
    return {
      id: this.id,
      workspace: this.workspace,
      title: this.title,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      messageCount: this.items.filter((i) => i.kind === 'user' || i.kind === 'assistant').length,
      model: this.model,
      running: this.running
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
  }
}

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? ''
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line || 'New session'
}
