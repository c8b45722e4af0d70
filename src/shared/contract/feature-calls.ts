import { z } from 'zod'
import {
  checkpointFileSchema,
  checkpointStatusSchema,
  fileChangeSchema,
  restorePlanSchema
} from '../checkpoints'
import { jobSummarySchema } from '../jobs'
import { sessionMetersSchema } from '../meters'
import { elicitActionSchema, elicitationSchema } from '../elicitation'
import { mcpLogLineSchema, mcpStatusSchema } from '../mcp'
import {
  memoryDetailSchema,
  memoryListItemSchema,
  memoryRevisionSchema,
  memoryScopeSchema
} from '../memory'
import {
  commandViewSchema,
  instructionFileSchema,
  questionSchema,
  skillDraftViewSchema,
  skillViewSchema
} from '../skills'
import { searchResultSchema } from '../websearch'

/** A checkpoint's id: a commit id of the shadow store, never a git expression or an option. */
const checkpointId = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, 'give a checkpoint id')

/** One call's schemas: what it takes and what it answers. */
export interface CallSpec {
  input: z.ZodType
  output: z.ZodType
}

export const none = z.object({}).strict()
export const sessionRef = z.object({ sessionId: z.string().min(1) }).strict()
export const folderPath = z.string().min(1, 'give the path of a folder')
const jobRef = z.object({ jobId: z.string().min(1) }).strict()

const memoryTarget = { scope: memoryScopeSchema, workspace: folderPath.optional() }
const memoryChange = z
  .object({ ...memoryTarget, name: z.string().min(1), expectedVersion: z.string().min(1) })
  .strict()
/** A skill draft of a project, as the person was shown it. */
const skillDraftRef = z
  .object({
    workspace: folderPath,
    name: z.string().min(1).max(200),
    digest: z.string().regex(/^[0-9a-f]{64}$/, 'give the digest the draft was listed with')
  })
  .strict()
const skillDraftResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), path: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() })
])
/** A memory with its history and its first revision (who created it, and when). */
const memoryInspection = memoryDetailSchema.extend({ origin: memoryRevisionSchema.nullable() })

export const settingsIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional()
})

/** A settings file with problems, and where the settings in force came from meanwhile. */
const settingsFileHealthSchema = z.object({
  scope: z.enum(['user', 'project']),
  path: z.string(),
  issues: z.array(settingsIssueSchema),
  source: z.enum(['file', 'defaults', 'last-valid', 'none'])
})

/** The calls of the features around the core: MCP, spills, jobs, memory, web search, skills. */
export const featureCalls = {
  /** The chat header's meters: the model's window and compaction threshold, the session's totals. */
  'session.meters': { input: sessionRef, output: sessionMetersSchema },
  /**
   * A desktop notification about a session, shown by the desktop app (browser mode answers
   * `shown: false`: the page uses the browser's own). A click focuses the window that asked and
   * emits `notification.clicked` with the tag.
   */
  'app.notify': {
    input: z
      .object({
        title: z.string().max(300),
        body: z.string().max(1000),
        tag: z.string().min(1).max(300)
      })
      .strict(),
    output: z.object({ shown: z.boolean() })
  },
  /** The settings files that apply in a folder (or the user's alone) that have problems. */
  'settings.status': {
    input: z.object({ workspace: folderPath.optional() }).strict(),
    output: z.object({ blocked: z.boolean(), files: z.array(settingsFileHealthSchema) })
  },
  'mcp.status': {
    input: z.object({ workspace: folderPath.optional() }).strict(),
    output: mcpStatusSchema
  },
  'mcp.log': {
    input: z.object({ workspace: folderPath.optional(), name: z.string().min(1) }).strict(),
    output: z.object({ lines: z.array(mcpLogLineSchema) })
  },
  'mcp.restart': {
    input: z.object({ workspace: folderPath, name: z.string().min(1) }).strict(),
    output: mcpStatusSchema
  },
  /**
   * Starts signing in to a remote server (OAuth): `url` is the page to open for the person (the
   * system browser; a tab in browser mode), null when the stored sign-in still works. The server
   * starts by itself once the browser comes back signed in.
   */
  'mcp.signIn': {
    input: z.object({ workspace: folderPath, name: z.string().min(1) }).strict(),
    output: z.object({ url: z.string().nullable() })
  },
  /** Forgets a remote server's sign-in (its tokens); it then waits for a new one. */
  'mcp.signOut': {
    input: z.object({ workspace: folderPath, name: z.string().min(1) }).strict(),
    output: mcpStatusSchema
  },
  /** Trusts (or stops trusting) project-defined servers for this project, by name. */
  'mcp.trust': {
    input: z
      .object({ workspace: folderPath, names: z.array(z.string().min(1)), trust: z.boolean() })
      .strict(),
    output: mcpStatusSchema
  },
  /** Fetches a server's prompt, its messages joined as text for the chat input. */
  'mcp.prompt': {
    input: z
      .object({
        workspace: folderPath,
        server: z.string().min(1),
        prompt: z.string().min(1),
        arguments: z.record(z.string(), z.string()).default({})
      })
      .strict(),
    output: z.object({ text: z.string() })
  },
  /** Reads servers from a Claude Desktop config or a `.mcp.json` (`mcpServers`), by path or text. */
  'mcp.import': {
    input: z.object({ path: z.string().min(1).optional(), text: z.string().optional() }).strict(),
    output: z.object({ servers: z.array(z.unknown()), notes: z.array(z.string()) })
  },
  /** MCP servers' requests for input still waiting in a project (a reloaded window shows them). */
  'mcp.elicitation.pending': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ elicitations: z.array(elicitationSchema) })
  },
  /**
   * The person's answer to a server's form; `content` only with accept. Content that does not
   * fit the form is refused (invalid_input, naming the field) and the request keeps waiting;
   * `ok` is false when nothing waits under that id any more.
   */
  'mcp.elicitation.answer': {
    input: z
      .object({
        elicitationId: z.string().min(1),
        action: elicitActionSchema,
        content: z.record(z.string(), z.unknown()).optional()
      })
      .strict(),
    output: z.object({ ok: z.boolean() })
  },
  /** A cut tool output saved whole; only files in that session's own spill directory. */
  'spill.read': {
    input: z.object({ sessionId: z.string().min(1), path: z.string().min(1) }).strict(),
    output: z.object({
      path: z.string(),
      text: z.string(),
      totalBytes: z.number(),
      /** Less than totalBytes when the file is too large to show whole. */
      shownBytes: z.number()
    })
  },
  /** One folder of a session's project, for attaching a file: `path` relative, `''` the root. */
  'files.list': {
    input: z.object({ sessionId: z.string().min(1), path: z.string().max(4096) }).strict(),
    output: z.object({
      path: z.string(),
      entries: z.array(z.object({ name: z.string(), kind: z.enum(['file', 'folder']) })),
      /** Entries not listed, past the listing's limit. */
      more: z.number()
    })
  },
  /**
   * The `@` finder: a project's files and folders (`.gitignore` honoured, never `.git`) that
   * best match `query`, best first, from an index kept fresh by a file watcher. `positions` are
   * the matched characters of `path`; `complete` is false when the project has more paths than
   * the index keeps.
   */
  'files.find': {
    input: z
      .object({
        workspace: folderPath,
        query: z.string().max(500),
        limit: z.number().int().min(1).max(200).default(50)
      })
      .strict(),
    output: z.object({
      items: z.array(
        z.object({
          path: z.string(),
          kind: z.enum(['file', 'folder']),
          positions: z.array(z.number().int().min(0))
        })
      ),
      total: z.number().int(),
      complete: z.boolean()
    })
  },
  /** Shell jobs of a project's sessions: background jobs, and foreground commands while they run. */
  'jobs.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ jobs: z.array(jobSummarySchema) })
  },
  /**
   * Starts following a job's output: the tail it keeps now, then `job.output` batches numbered
   * after `seq`. Each batch must be acknowledged (`jobs.ack`) or the job is paused to wait.
   */
  'jobs.output': {
    input: jobRef,
    output: z.object({ data: z.string(), seq: z.number(), droppedBytes: z.number() })
  },
  'jobs.unfollow': { input: jobRef, output: z.object({ ok: z.boolean() }) },
  'jobs.ack': {
    input: z.object({ jobId: z.string().min(1), chars: z.number().int().min(0) }).strict(),
    output: z.object({ ok: z.boolean() })
  },
  /** Stops a running job and everything it started. */
  'jobs.cancel': { input: jobRef, output: z.object({ cancelled: z.boolean() }) },
  /** Removes a finished job from the monitor. */
  'jobs.dismiss': { input: jobRef, output: z.object({ dismissed: z.boolean() }) },
  /** The person stops a running tool call (a foreground Shell command). */
  'tool.stop': {
    input: z.object({ sessionId: z.string().min(1), callId: z.string().min(1) }).strict(),
    output: z.object({ stopped: z.boolean() })
  },
  /**
   * The memory browser. Project scope needs `workspace`; the user scope ignores it. An empty
   * query lists every entry, forgotten ones too, most recent first; words search live ones.
   */
  'memory.search': {
    input: z
      .object({
        ...memoryTarget,
        query: z.string().max(500).default(''),
        limit: z.number().int().min(1).max(500).optional()
      })
      .strict(),
    output: z.object({ items: z.array(memoryListItemSchema) })
  },
  'memory.inspect': {
    input: z.object({ ...memoryTarget, name: z.string().min(1) }).strict(),
    output: memoryInspection
  },
  /** Forget and Undo follow the tools' rule: `expectedVersion` must be the current version. */
  'memory.forget': {
    input: memoryChange,
    output: memoryInspection
  },
  'memory.undo': {
    input: memoryChange,
    output: memoryInspection
  },
  /** Settings → Search's Test button: one query over the chain as drafted (not yet saved). */
  'websearch.test': {
    input: z.object({ websearch: z.unknown(), query: z.string().trim().min(1).max(400) }).strict(),
    output: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        backend: z.string(),
        results: z.array(searchResultSchema),
        /** Backends tried before the one that answered, and why each failed. */
        failures: z.array(z.string())
      }),
      z.object({ ok: z.literal(false), error: z.string() })
    ])
  },
  /** The slash commands of a folder: built-ins, command files and skills, with name clashes. */
  'commands.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ commands: z.array(commandViewSchema), problems: z.array(z.string()) })
  },
  /** Every skill folder found for a project, skipped ones with the reason. */
  'skills.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ skills: z.array(skillViewSchema), enabled: z.boolean() })
  },
  /** A project's SkillDraft drafts, each with its text and whether it can be activated. */
  'skillDrafts.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ drafts: z.array(skillDraftViewSchema) })
  },
  /**
   * Settings → Skills' Activate: the draft, as it was shown (`digest`), becomes a learned skill
   * with only its name, description and instructions; refused in words when its name is taken.
   */
  'skillDrafts.activate': {
    input: skillDraftRef,
    output: skillDraftResult
  },
  /** Settings → Skills' Delete: removes the draft as it was shown (`digest`). */
  'skillDrafts.delete': {
    input: skillDraftRef,
    output: skillDraftResult
  },
  /** The instruction files (AGENTS.md, CLAUDE.md) read into a project's system prompt. */
  'instructions.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ files: z.array(instructionFileSchema) })
  },
  /** Whether checkpoints are taken in a folder (and why not), and how many it has. */
  'checkpoints.status': {
    input: z.object({ workspace: folderPath }).strict(),
    output: checkpointStatusSchema
  },
  /** One file at two checkpoints of a session's folder: a card's diff. */
  'checkpoints.file': {
    input: z
      .object({
        sessionId: z.string().min(1),
        before: checkpointId,
        after: checkpointId,
        path: z.string().min(1)
      })
      .strict(),
    output: checkpointFileSchema
  },
  /**
   * What a restore would do, before it is done: to how the folder was before a user message
   * (Rewind) or at a checkpoint (a card's Revert, Undo restore), all files or only `files`.
   */
  'checkpoints.plan': {
    input: z
      .object({
        sessionId: z.string().min(1),
        to: z.union([
          z.object({ message: z.string().min(1) }).strict(),
          z.object({ checkpoint: checkpointId }).strict()
        ]),
        files: z.array(z.string().min(1)).optional()
      })
      .strict(),
    output: restorePlanSchema
  },
  /**
   * Puts the files back (checkpointing the folder first, so it can be undone) and records the
   * restore in the session. Refused with `conflict` when it would replace a file changed outside
   * the agent since its last checkpoint and `replaceChanged` is not set.
   */
  'checkpoints.restore': {
    input: z
      .object({
        sessionId: z.string().min(1),
        checkpoint: checkpointId,
        files: z.array(z.string().min(1)).optional(),
        replaceChanged: z.boolean(),
        /** What is restored, as a sentence ("Files restored to before “fix the tests”"). */
        label: z.string().trim().min(1).max(300)
      })
      .strict(),
    output: z.object({ undo: z.string(), changes: z.array(fileChangeSchema) })
  },
  /** The AskUser questions of a session still waiting for the person (opening it shows them). */
  'question.pending': {
    input: sessionRef,
    output: z.object({ questions: z.array(questionSchema) })
  },
  /** The person's answer to an AskUser question. */
  'question.answer': {
    input: z.object({ questionId: z.string().min(1), answer: z.string() }).strict(),
    output: z.object({ ok: z.boolean() })
  }
}
