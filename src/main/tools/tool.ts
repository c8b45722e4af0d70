import type { z } from 'zod'
import type { Capabilities, ContentBlock, ToolDisplay, ToolOutput } from '../../shared/domain'
import type { Provenance } from '../../shared/provenance'
import type { PathJail } from '../workspace/path-jail'
import type { ReadVersions } from '../workspace/read-versions'
import type { SessionSkills } from '../skills/session-skills'
import type { TodoBoard } from './todo/todo-board'
import type { ToolPresentation } from './tool-presentation'

export type { Capabilities, ToolOutput, ToolPresentation }

/**
 * The decision for a call that no permission rule names, below every rule: `allow` or `prompt`
 * whatever the mode says, or null, when the mode decides. Any rule that names the tool, of any
 * scope, replaces it.
 */
export type DefaultDecision = 'allow' | 'prompt' | null

/** What a tool may use while it runs: the jailed workspace and this session's read ledger. */
export interface ToolContext {
  readonly sessionId: string
  readonly jail: PathJail
  readonly reads: ReadVersions
  readonly signal: AbortSignal
  /** The session's plan, rewritten by the Todo tool; absent where no session keeps one. */
  readonly todos?: TodoBoard
  /** Whether the session's model takes images; Read describes an image in words when not. */
  readonly modelSupportsImages?: boolean
  /** The id of the call being run, so a tool can be stopped by it (Shell's Stop button). */
  readonly callId?: string
  /** The skills this session has loaded (the Skill tool records loads here). */
  readonly skills?: SessionSkills
  /** Asks for the conversation to be compacted once the current step's calls have run. */
  readonly requestCompaction?: () => void
  /** Shows work in progress on the call's card (a sub-agent's transcript as it grows). */
  readonly progress?: (display: ToolDisplay) => void
  /**
   * A person approved this call as a write into `.git`. Without it, a file tool refuses a path
   * that leads into `.git` when it acts: it did not when the gate judged the call, so a link
   * appeared in between.
   */
  readonly gitWriteApproved?: boolean
  /**
   * Where what this call writes comes from, as the conversation stands when it runs: the session,
   * its folder, and whether untrusted input has entered it. Tools that store text for later
   * sessions (Remember, SkillDraft) keep it with what they store. Absent, nobody vouched for the
   * conversation, and what is stored counts as of unknown origin (untrusted).
   */
  readonly provenance?: () => Provenance
}

/**
 * A tool the model can call. Built-in and MCP tools share this interface; nothing above the
 * catalog knows where one came from. Every fact about a tool that the gate, the turn or the
 * window acts on is a required field here, never a table keyed by its name elsewhere: such a
 * table fails open for the next tool, and a tool that leaves a fact out does not compile
 * (tool-facts.test.ts walks the catalog and checks each is used).
 */
export interface Tool<Schema extends z.ZodType = z.ZodType> {
  readonly name: string
  readonly description: string
  readonly inputSchema: Schema
  readonly readOnly: boolean
  readonly capabilities: Capabilities
  /** Where the tool comes from: `builtin`, or `mcp:<server>`. */
  readonly source: string
  /**
   * Its results carry what is in the project folder (a file's text, names in it, a command's
   * output, a skill kept there): in a folder whose authors are not trusted they are untrusted
   * input, as a web page is (agent/folder-content.ts). False for a tool that answers only with
   * what the model gave it (Write's path).
   */
  readonly folderContent: boolean
  /**
   * It works in the project folder (its files, commands run there, copies of it), so a session
   * started with the `no-fs` profile never has it (agent/turn-tools.ts).
   */
  readonly needsFolder: boolean
  /** What a call gets when no permission rule names the tool (gate/floor.ts). */
  readonly defaultDecision: DefaultDecision
  /** How the window shows its calls: the card and the approval dialog. */
  readonly presentation: ToolPresentation
  /** Left out of what the model is sent until ToolSearch finds it (an MCP server's `disclose`). */
  readonly disclosable?: boolean
  /**
   * What this call may do, when it depends on the input (a sub-agent given a tool list); the
   * gate and the taint use it instead of `capabilities`, which must cover every input.
   */
  capabilitiesFor?(input: z.infer<Schema>): Capabilities
  /**
   * Whether this call changes nothing in the session's folder, when that depends on the input (a
   * sub-agent given only read-only tools, a Parallel run that leaves its changes in copies).
   * Absent, `readOnly` decides. The dispatcher's batching, the gate's modes and planning, the
   * checkpoints and the card all go by `isReadOnlyCall`, which asks this.
   */
  readOnlyFor?(input: z.infer<Schema>): boolean
  /**
   * The paths this call creates, changes, moves or removes, as its input names them (relative to
   * the project folder). The gate resolves them as the path jail does: one in a `.git` folder
   * needs a person's approval in every mode, whatever the rules say.
   */
  pathsWritten?(input: z.infer<Schema>): string[]
  /**
   * Why this call must be approved by a person whatever the mode, the rules or `--yes` say (a
   * Shell command asking to leave its sandbox), said as what approving gives away; null if not.
   */
  escapes?(input: z.infer<Schema>): string | null
  /**
   * Why a call made in a folder whose authors the person does not trust must be approved by a
   * person, as `escapes` says it (RememberUser: what it saves, every project reads); absent when
   * the folder's trust changes nothing about the call. See agent/folder-content.ts.
   */
  readonly untrustedFolderAsks?: string
  call(input: z.infer<Schema>, ctx: ToolContext): Promise<ToolOutput>
}

/**
 * Whether this call of `tool`, with its parsed input, changes nothing: `readOnlyFor` when the tool
 * has it, else `readOnly`. A hook that throws or answers anything but true counts as a change.
 */
export function isReadOnlyCall(tool: Tool, input: unknown): boolean {
  if (!tool.readOnlyFor) return tool.readOnly
  try {
    return tool.readOnlyFor(input) === true
  } catch {
    return false
  }
}

/** Whether some call of `tool` can be read-only, so planning mode offers it. */
export function mayBeReadOnly(tool: Tool): boolean {
  return tool.readOnly || tool.readOnlyFor !== undefined
}

/** Declares a tool with its input type inferred from its schema. */
export function defineTool<Schema extends z.ZodType>(tool: Tool<Schema>): Tool {
  return tool as unknown as Tool
}

/**
 * Declares a member of a family of tools: `shared`, the facts every member has alike, stated once
 * by the family, and `own`, every other fact of Tool, which the member must state. They are
 * joined by property descriptor, so a fact given as a getter (WebSearch's capabilities follow the
 * settings) is still read at each use; the family's facts win.
 */
export function familyTool<Schema extends z.ZodType, Shared extends keyof Tool>(
  shared: Pick<Tool, Shared>,
  own: Omit<Tool<Schema>, Shared>
): Tool {
  const facts = Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(own), ...Object.getOwnPropertyDescriptors(shared) }
  )
  return defineTool<Schema>(facts as Tool<Schema>)
}

/**
 * The facts of a built-in tool that changes nothing and has nothing to do with the project folder
 * (AskUser, Todo, the web tools): it needs no folder and answers with none of its content, and
 * with no permission rule naming it, the mode decides. What it may do (`capabilities`) is its own.
 */
const folderlessReadOnly = {
  readOnly: true,
  source: 'builtin',
  folderContent: false,
  needsFolder: false,
  defaultDecision: null
} as const satisfies Partial<Tool>

/** Declares a read-only built-in tool that stays out of the project folder (see above). */
export function folderlessReadOnlyTool<Schema extends z.ZodType>(
  own: Omit<Tool<Schema>, keyof typeof folderlessReadOnly>
): Tool {
  return familyTool(folderlessReadOnly, own)
}

export const noCapabilities: Capabilities = {
  privateData: false,
  untrustedInput: false,
  egress: 'none',
  destructive: false
}

export function textOutput(text: string, isError = false): ToolOutput {
  return { content: [{ type: 'text', text }], isError, external: false }
}

/**
 * `output`, saying it carries untrusted input when `untrusted` (see ToolOutput.untrustedInput):
 * the call then counts as untrusted input, whatever its tool's capabilities say.
 */
export function markedUntrusted(output: ToolOutput, untrusted: boolean): ToolOutput {
  return untrusted ? { ...output, untrustedInput: true } : output
}

/** An expected failure the model can route around, said in words it can act on. */
export function errorOutput(text: string): ToolOutput {
  return textOutput(text, true)
}

export function outputText(content: readonly ContentBlock[]): string {
  return content
    .map((block) => (block.type === 'text' ? block.text : `[image ${block.mediaType}]`))
    .join('\n')
}
