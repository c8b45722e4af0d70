import { z } from 'zod'
import type { MemoryScope } from '../../../shared/memory'
import { isUntrusted, type Provenance } from '../../../shared/provenance'
import {
  projectOwner,
  userOwner,
  type MemoryOwner,
  type MemoryStore,
  type MutationResult
} from '../../store/memory-store'
import {
  errorOutput,
  familyTool,
  markedUntrusted,
  textOutput,
  type Capabilities,
  type Tool,
  type ToolContext,
  type ToolOutput
} from '../tool'
import { inputString } from '../../../shared/tool-input'
import { plainPresentation, type ToolPresentation } from '../tool-presentation'
import {
  forgetReceipt,
  forgottenText,
  inspectText,
  missingText,
  recallText,
  refusalText,
  rememberReceipt,
  searchText,
  undoReceipt,
  type ScopeWords
} from './memory-text'

/** Longest memory kept: a note, not a document (a document belongs in the project's files). */
export const MAX_CONTENT_CHARS = 8000
const HISTORY_LIMIT = 10
const DEFAULT_RESULTS = 10
const MAX_RESULTS = 50

/** What a memory holds came from conversations, so every memory tool touches private data. */
const reads: Capabilities = {
  privateData: true,
  untrustedInput: false,
  egress: 'none',
  destructive: false
}
/** Forget hides a memory from every later session: a person approves it by default. */
const destroys: Capabilities = { ...reads, destructive: true }

/** A Forget or Undo that was made. */
type ChangedNote = Extract<MutationResult, { ok: true }>

interface ScopeSpec {
  readonly scope: MemoryScope
  readonly words: ScopeWords
  /** What the scope is for, said in each Remember description. */
  readonly purpose: string
  owner(ctx: ToolContext): MemoryOwner
  /** The store as the approval dialog names it to the person, and who reads what is saved. */
  readonly shownAs: { readonly store: string; readonly readers: string }
  /** Why Remember needs a person in a folder whose authors are not trusted; absent: it does not. */
  readonly untrustedFolderAsks?: string
}

const projectScope: ScopeSpec = {
  scope: 'project',
  words: {
    label: 'project memory',
    remember: 'Remember',
    recall: 'Recall',
    search: 'SearchMemory',
    inspect: 'InspectMemory',
    forget: 'ForgetMemory',
    undo: 'UndoMemory'
  },
  purpose:
    "this project folder's memory, which later sessions in this folder can read: facts about the project, decisions and their reasons, how to build and test it",
  // The jail's root is the canonical folder, the same key the memory browser uses.
  owner: (ctx) => projectOwner(ctx.jail.root),
  shownAs: { store: 'the project memory', readers: 'which later sessions in this folder read' }
}

const userScope: ScopeSpec = {
  scope: 'user',
  words: {
    label: 'user model',
    remember: 'RememberUser',
    recall: 'RecallUser',
    search: 'SearchUserModel',
    inspect: 'InspectUserMemory',
    forget: 'ForgetUserMemory',
    undo: 'UndoUserMemory'
  },
  purpose:
    'the user model, shared by every project: what you learn about the person (preferences, role, how they like to work); facts about one project go to Remember instead',
  owner: () => userOwner,
  shownAs: { store: 'your user model', readers: 'which sessions in every project read' },
  // The project memory stays with the folder; the user model is read in every project, so a
  // note the folder's authors may have worded is not carried there unless a person says so.
  untrustedFolderAsks:
    "it saves a note to the user model, which every project's sessions read, from a folder whose authors you do not trust, so the note may carry their words"
}

const name = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\r\n\t]+$/, 'a name is one short line')
  .describe('The entry\'s name: short and stable, e.g. "build-and-test". Case does not matter.')

const expectedVersion = z
  .string()
  .min(1)
  .max(64)
  .describe('The current version, copied from a Recall, Inspect or a receipt of this entry.')

/**
 * Where what this call writes comes from: the session's conversation as it stands. Nobody said
 * (no session gave it), so nobody vouches for it: unknown, which counts as untrusted.
 */
function writer(ctx: ToolContext): Provenance {
  return ctx.provenance?.() ?? { trust: 'unknown', sessionId: ctx.sessionId, folder: ctx.jail.root }
}

/** What a memory tool does to the notes. */
type NoteAction = 'read' | 'save' | 'forget' | 'undo'
type ActionFacts = Pick<Tool, 'readOnly' | 'capabilities' | 'defaultDecision'>

// The memory tools' default decisions, below every rule: keeping notes, reading them and taking
// a change back are how the model works with its memory, so asking each time would only teach the
// person to click Allow; forgetting hides an entry from every later session, so a person says yes
// to it.
const actionFacts: Record<NoteAction, ActionFacts> = {
  read: { readOnly: true, capabilities: reads, defaultDecision: 'allow' },
  save: { readOnly: false, capabilities: reads, defaultDecision: 'allow' },
  forget: { readOnly: false, capabilities: destroys, defaultDecision: 'prompt' },
  undo: { readOnly: false, capabilities: reads, defaultDecision: 'allow' }
}

/**
 * How the window shows a memory tool's calls. A change says it is to a note, not a file: the
 * notes are kept in SQLite, never in the project's files.
 */
function notePresentation(name: string, spec: ScopeSpec, action: NoteAction): ToolPresentation {
  if (action === 'read') return plainPresentation(name, 'nothing')
  const { store, readers } = spec.shownAs
  const sentence = (input: unknown): string => {
    const note = `the note "${inputString(input, 'name') ?? 'unnamed'}"`
    switch (action) {
      case 'save':
        return `Save ${note} in ${store}, ${readers}. No file changes.`
      case 'forget':
        return `Forget ${note} in ${store}: later sessions no longer see it (its history keeps it). No file changes.`
      case 'undo':
        return `Put back the previous version of ${note} in ${store}. No file changes.`
    }
  }
  return { ...plainPresentation(name, 'memory'), sentence }
}

/**
 * Declares a memory tool of `spec`'s scope: what it may do, its default decision and how it
 * shows follow from `action`. None needs the folder (its notes are in the store, keyed by the
 * folder's path) or brings the folder's content in (a note's own origin marks it, see
 * markedUntrusted below).
 */
function noteTool<Schema extends z.ZodType>(
  spec: ScopeSpec,
  action: NoteAction,
  own: Pick<Tool<Schema>, 'name' | 'description' | 'inputSchema' | 'call' | 'untrustedFolderAsks'>
): Tool {
  return familyTool(
    {
      ...actionFacts[action],
      source: 'builtin',
      folderContent: false,
      needsFolder: false,
      presentation: notePresentation(own.name, spec, action)
    },
    own
  )
}

function scopeTools(store: MemoryStore, spec: ScopeSpec): Tool[] {
  const { words } = spec
  const versioned = z.strictObject({ name, expected_version: expectedVersion })

  /**
   * Forget's and Undo's call: the change is made only at the version the model names, and
   * refused in words it can act on when that is not the current one.
   */
  const atVersion =
    (change: 'forget' | 'undo', receipt: (done: ChangedNote) => ToolOutput) =>
    async (input: z.infer<typeof versioned>, ctx: ToolContext): Promise<ToolOutput> => {
      const result = store[change](spec.owner(ctx), input.name, input.expected_version, writer(ctx))
      if (!result.ok) {
        return errorOutput(refusalText(result, input.name, input.expected_version, words))
      }
      return receipt(result)
    }

  const remember = noteTool(spec, 'save', {
    name: words.remember,
    description: [
      `Save a note under a name in ${spec.purpose}.`,
      'Remembering an existing name replaces its content; the old content stays in its history',
      `(${words.undo} puts it back). Keep each entry short and about one thing. Returns the new`,
      'version.'
    ].join(' '),
    inputSchema: z.strictObject({
      name,
      content: z
        .string()
        .min(1)
        .max(MAX_CONTENT_CHARS)
        .describe(`What to remember, at most ${MAX_CONTENT_CHARS} characters.`)
    }),
    ...(spec.untrustedFolderAsks ? { untrustedFolderAsks: spec.untrustedFolderAsks } : {}),
    async call(input, ctx) {
      const result = store.remember(spec.owner(ctx), input.name, input.content, writer(ctx))
      // An update's receipt quotes what the entry held before.
      const quoted = result.change === 'updated' ? result.previous : null
      return markedUntrusted(
        textOutput(rememberReceipt(result, words)),
        quoted !== null && isUntrusted(quoted.provenance)
      )
    }
  })

  const recall = noteTool(spec, 'read', {
    name: words.recall,
    description: `Read one entry of the ${words.label} by its exact name (case does not matter): its content and current version. ${words.search} finds entries when you do not know the name.`,
    inputSchema: z.strictObject({ name }),
    async call(input, ctx) {
      const entry = store.get(spec.owner(ctx), input.name)
      if (!entry) return errorOutput(missingText(input.name, words))
      if (entry.content === null) return errorOutput(forgottenText(entry, words, ctx.sessionId))
      return markedUntrusted(
        textOutput(recallText(entry, words, ctx.sessionId)),
        isUntrusted(entry.provenance)
      )
    }
  })

  const search = noteTool(spec, 'read', {
    name: words.search,
    description: `Search the ${words.label} by words (full-text, ranked by BM25, best first; word forms match: "test" finds "testing"). Returns names, versions and a snippet with the matching words in **bold**; ${words.recall} a name to read it whole. Forgotten entries are not found.`,
    inputSchema: z.strictObject({
      query: z.string().trim().min(1).max(500).describe('Words to look for.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_RESULTS)
        .optional()
        .describe(`How many entries at most. Default ${DEFAULT_RESULTS}.`)
    }),
    async call(input, ctx) {
      const found = store.search(spec.owner(ctx), input.query, {
        limit: input.limit ?? DEFAULT_RESULTS
      })
      return markedUntrusted(
        textOutput(searchText(input.query, found, words)),
        found.hits.some((hit) => isUntrusted(hit.entry.provenance))
      )
    }
  })

  const inspect = noteTool(spec, 'read', {
    name: words.inspect,
    description: `Show one entry of the ${words.label} in full: its exact current version (the one ${words.forget} and ${words.undo} need), whether it is live or forgotten, who changed it (which session) and when, and its last ${HISTORY_LIMIT} revisions. Call it before ${words.forget} or ${words.undo} when you do not hold the current version.`,
    inputSchema: z.strictObject({ name }),
    async call(input, ctx) {
      const owner = spec.owner(ctx)
      const detail = store.inspect(owner, input.name, HISTORY_LIMIT)
      if (!detail) return errorOutput(missingText(input.name, words))
      const origin = store.origin(owner, input.name)
      // It shows the content and a preview of each revision's.
      const shown = [detail.entry, ...detail.history].filter((r) => r.content !== null)
      return markedUntrusted(
        textOutput(inspectText(detail, origin, words, ctx.sessionId)),
        shown.some((revision) => isUntrusted(revision.provenance))
      )
    }
  })

  const forget = noteTool(spec, 'forget', {
    name: words.forget,
    description: `Forget an entry of the ${words.label}: it is no longer recalled or found by later sessions, but its history is kept and ${words.undo} restores it. expected_version must be the current version, copied from ${words.recall}, ${words.inspect} or a receipt of this entry; an older or made-up one is refused.`,
    inputSchema: versioned,
    call: atVersion('forget', (done) => textOutput(forgetReceipt(done.entry, words)))
  })

  const undo = noteTool(spec, 'undo', {
    name: words.undo,
    description: `Undo the latest change to an entry of the ${words.label} by writing a new revision: an update goes back to the previous content, a forgotten entry is restored, a new entry goes away, and an undo is redone. expected_version must be the current version, copied from ${words.recall}, ${words.inspect} or the latest receipt of this entry; an older or made-up one is refused.`,
    inputSchema: versioned,
    // The receipt quotes what the entry holds now.
    call: atVersion('undo', (done) =>
      markedUntrusted(
        textOutput(undoReceipt(done.entry, done.previous, words)),
        done.entry.content !== null && isUntrusted(done.entry.provenance)
      )
    )
  })

  return [remember, recall, search, inspect, forget, undo]
}

/** The words each scope's messages use, for the memory browser's refusals. */
export const scopeWords: Readonly<Record<MemoryScope, ScopeWords>> = {
  project: projectScope.words,
  user: userScope.words
}

/**
 * The memory tools over one store: the project scope always, the user-model twins unless
 * `userModel` is false (`user_model: {enabled: false}`, `--no-user-model`).
 */
export function memoryTools(store: MemoryStore, options: { userModel: boolean }): Tool[] {
  return [...projectMemoryTools(store), ...(options.userModel ? userModelTools(store) : [])]
}

/** The project memory's tools (Remember, Recall…): always offered. */
export function projectMemoryTools(store: MemoryStore): Tool[] {
  return scopeTools(store, projectScope)
}

/** The user model's tools (RememberUser…): offered while `user_model.enabled` is on. */
export function userModelTools(store: MemoryStore): Tool[] {
  return scopeTools(store, userScope)
}
