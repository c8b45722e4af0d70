import type { TranscriptItem } from '../../shared/domain'

/** The parent of a session's first messages: they branch from the start of the conversation. */
const ROOT = ''

/** What placing an item reads of it: its kind and, for a user message, the message it follows. */
export interface PlacedItem {
  kind: TranscriptItem['kind']
  parent?: string | null
}

/** A branch point and the message shown there, as the log records the person's choice. */
export interface BranchChoice {
  /** The user message the branches follow (its transcript key); null: the first message. */
  parent: string | null
  /** The user message shown after it. */
  child: string
}

/** A user message with other versions: the versions' keys in the order they were written. */
export interface BranchSiblings {
  key: string
  siblings: string[]
}

/**
 * A conversation's branches. Each user message starts a segment (its turn and what follows it
 * until the next message) and follows a parent message; an edited message is a new child of the
 * same parent, so the versions of a message are siblings. The conversation shown is one path
 * from the start: at each branch point the child the person chose, else the newest. Items are
 * kept in the order they came, tagged with the segment they were added to: the shown path's
 * items are its segments' items in that order.
 */
export class BranchTree {
  private readonly parents = new Map<string, string>()
  private readonly children = new Map<string, string[]>()
  private readonly chosen = new Map<string, string>()
  /** Each item's segment: the user message it came after on its path (ROOT: before any). */
  private readonly segments = new Map<string, string>()
  /** The path shown, until a message or a choice changes it. */
  private shown: string[] | null = null

  /**
   * Places a new item: a user message follows `item.parent` (absent, as in records from before
   * branches: the message at the end of the path shown), becomes the shown child there, and
   * starts its segment; anything else joins the segment at the end of the path shown.
   */
  place(key: string, item: PlacedItem, segment?: string | null): void {
    if (this.segments.has(key)) return
    if (item.kind !== 'user') {
      this.segments.set(key, segment === undefined ? (this.tip() ?? ROOT) : (segment ?? ROOT))
      return
    }
    const tip = this.tip() ?? ROOT
    const parent = item.parent === undefined ? tip : (item.parent ?? ROOT)
    this.parents.set(key, parent)
    this.children.set(parent, [...(this.children.get(parent) ?? []), key])
    this.chosen.set(parent, key)
    this.segments.set(key, key)
    // A message after the tip (the usual case) extends the path shown: walking it again for
    // every message would make replaying a long session quadratic.
    if (parent === tip && this.shown) this.shown.push(key)
    else this.shown = null
  }

  /** Shows `child` at its branch point; false when it is no user message of this tree. */
  choose(child: string): boolean {
    const parent = this.parents.get(child)
    if (parent === undefined) return false
    this.chosen.set(parent, child)
    this.shown = null
    return true
  }

  /** The choice that shows `child`, as recorded (null parent: the first message). */
  choiceOf(child: string): BranchChoice | null {
    const parent = this.parents.get(child)
    if (parent === undefined) return null
    return { parent: parent === ROOT ? null : parent, child }
  }

  /** The message `key` follows (null: none, it is a first message; undefined: unknown key). */
  parentOf(key: string): string | null | undefined {
    const parent = this.parents.get(key)
    return parent === undefined ? undefined : parent === ROOT ? null : parent
  }

  /** The user messages of the path shown, first to last. */
  path(): string[] {
    this.shown ??= this.walk()
    return [...this.shown]
  }

  private walk(): string[] {
    const path: string[] = []
    let at = ROOT
    for (;;) {
      const options = this.children.get(at)
      if (!options || options.length === 0) return path
      const next = this.chosen.get(at) ?? (options.at(-1) as string)
      path.push(next)
      at = next
    }
  }

  /** The last user message of the path shown, where new items go; null before any. */
  tip(): string | null {
    this.shown ??= this.walk()
    return this.shown.at(-1) ?? null
  }

  /** The segment an item was placed in: the user message it follows (null: before any). */
  segmentOf(key: string): string | null {
    const segment = this.segments.get(key)
    return segment === undefined || segment === ROOT ? null : segment
  }

  /** Whether an item is on the path shown. */
  shows(key: string, path: ReadonlySet<string> = new Set(this.path())): boolean {
    const segment = this.segments.get(key)
    return segment === undefined || segment === ROOT || path.has(segment)
  }

  /** The messages on the path shown that have other versions, with all their versions. */
  branchPoints(): BranchSiblings[] {
    return this.path().flatMap((key) => {
      const siblings = this.children.get(this.parents.get(key) ?? ROOT) ?? []
      return siblings.length > 1 ? [{ key, siblings: [...siblings] }] : []
    })
  }
}
