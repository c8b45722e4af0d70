// What a tool call gives back and how the window shows it: the output, its display kinds
// (file text, diffs, listings, hits, a child's steps), and where an output too large was saved.
import { z } from 'zod'

export const contentBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mediaType: z.string(), data: z.string() })
])
export type ContentBlock = z.infer<typeof contentBlockSchema>

/** One Grep hit: `ranges` are [start, end) character offsets of the matches within `text`. */
export const grepMatchSchema = z.object({
  path: z.string(),
  line: z.number(),
  text: z.string(),
  ranges: z.array(z.tuple([z.number(), z.number()]))
})
export type GrepMatch = z.infer<typeof grepMatchSchema>

/**
 * One step of a child agent's work, as its parent's tool card shows it. Kept flat (a call's
 * output as text) so a child's transcript never nests the display union inside itself.
 */
export const childStepSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), id: z.string(), text: z.string() }),
  z.object({
    kind: z.literal('call'),
    id: z.string(),
    name: z.string(),
    input: z.unknown(),
    state: z.enum(['awaiting-approval', 'running', 'done', 'failed', 'denied']),
    refusedBy: z.string().nullable(),
    output: z.string().nullable(),
    /** The line about its key arguments, as its tool says it (see toolCardSchema). */
    summary: z.string().optional()
  })
])
export type ChildStep = z.infer<typeof childStepSchema>

/** A file a parallel branch changed; `before`/`after` null when it was created/removed. */
export const branchChangeSchema = z.object({
  path: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable()
})
export type BranchChange = z.infer<typeof branchChangeSchema>

/**
 * How the window shows a tool's result. Structured for the renderer only; never sent to the
 * model, which sees `content`. Paths are workspace-relative with `/`.
 */
export const toolDisplaySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('diff'),
    path: z.string(),
    /** null when the file was created. */
    before: z.string().nullable(),
    after: z.string()
  }),
  z.object({
    kind: z.literal('image'),
    path: z.string(),
    mediaType: z.string(),
    /** Size of the image file in bytes. */
    bytes: z.number()
  }),
  z.object({ kind: z.literal('files'), files: z.array(z.string()), more: z.number() }),
  z.object({ kind: z.literal('matches'), matches: z.array(grepMatchSchema), more: z.number() }),
  z.object({ kind: z.literal('listing'), entries: z.array(z.string()) }),
  /** WebFetch and WebOpen: a third-party page as readable text, with where it came from. */
  z.object({
    kind: z.literal('web-page'),
    url: z.string(),
    /** Where the redirects ended; equal to `url` when there were none. */
    finalUrl: z.string(),
    title: z.string().nullable(),
    contentType: z.string(),
    text: z.string(),
    /** Why the text is not the whole page (download or output cap), or null. */
    cut: z.string().nullable()
  }),
  /** Subagent, Agent_<name> and Team: the child's own transcript, live while it runs. */
  z.object({
    kind: z.literal('subagent'),
    agent: z.string(),
    task: z.string(),
    status: z.enum(['running', 'done', 'failed']),
    steps: z.array(childStepSchema),
    /** Why the answer was marked untrusted, or that it was trusted by its shape. */
    note: z.string().nullable()
  }),
  /** Parallel: the branches side by side, with what each changed; `merged` once one is taken. */
  z.object({
    kind: z.literal('parallel'),
    runId: z.string(),
    mode: z.enum(['join', 'select']),
    merged: z.number().nullable(),
    /** Whether the branches' copies still exist, so one can still be taken. */
    open: z.boolean(),
    branches: z.array(
      z.object({
        index: z.number(),
        task: z.string(),
        status: z.enum(['running', 'done', 'failed']),
        answer: z.string(),
        steps: z.array(childStepSchema),
        changes: z.array(branchChangeSchema)
      })
    )
  }),
  /**
   * Shell with background: true: the job it started, so the window links to it without reading
   * the sentence meant for the model. Absent in records made before it existed.
   */
  z.object({ kind: z.literal('job'), jobId: z.string() }),
  /**
   * An MCP tool's progress while it runs, as its server reports it: `total` null when the server
   * does not know how much there is. Replaced by the result when the call ends.
   */
  z.object({
    kind: z.literal('progress'),
    progress: z.number(),
    total: z.number().nullable(),
    message: z.string().nullable()
  }),
  /** WebSearch: the results with their handles, from the backend that answered. */
  z.object({
    kind: z.literal('web-results'),
    query: z.string(),
    backend: z.string(),
    results: z.array(
      z.object({ handle: z.string(), title: z.string(), url: z.string(), snippet: z.string() })
    )
  })
])
export type ToolDisplay = z.infer<typeof toolDisplaySchema>

/**
 * A result cut to fit the turn's output budget: the whole text saved in the session's spill
 * directory (`saved`), or, when saving failed, lost and to be re-run (`lost`).
 */
export const spillInfoSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('saved'),
    /** Absolute path of the saved file; Read and `spill.read` accept it. */
    path: z.string(),
    shownBytes: z.number(),
    totalBytes: z.number(),
    /** The 1-based line of the saved file where the part not shown begins. */
    continueAtLine: z.number()
  }),
  z.object({
    kind: z.literal('lost'),
    shownBytes: z.number(),
    totalBytes: z.number(),
    reason: z.string()
  })
])
export type SpillInfo = z.infer<typeof spillInfoSchema>

export const toolOutputSchema = z.object({
  content: z.array(contentBlockSchema),
  isError: z.boolean(),
  external: z.boolean(),
  /**
   * The result carries untrusted input that its tool could only know of once it read it: a note,
   * skill or session written in a conversation that held some (see shared/provenance.ts). The
   * call's capabilities widen by it after it ran, so its card and the session's taint go by it.
   */
  untrustedInput: z.boolean().optional(),
  /** Structured form for the window (diff, image, file list, matches); not sent to the model. */
  display: toolDisplaySchema.optional(),
  /** Set when the output was cut to the turn's budget; the last text block is then the marker. */
  spill: spillInfoSchema.optional(),
  /**
   * Where a Shell command ran, for its card: "confined (bubblewrap), network off", or
   * "not confined (…)". Absent for other tools and in records made before it existed.
   */
  confinement: z.string().optional()
})
export type ToolOutput = z.infer<typeof toolOutputSchema>
