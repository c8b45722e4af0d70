import { z } from 'zod'
import { elicitationSchema, elicitActionSchema } from '../elicitation'
import { mcpStatusSchema, mcpLogLineSchema } from '../mcp'
import { folderPath, type CallSpec } from './call-spec'

/** MCP servers: their state and logs, trust, sign-in, prompts, importing configs, and their requests for input. */
export const calls = {
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
  }
} satisfies Record<string, CallSpec>

export const events = {
  'mcp.updated': mcpStatusSchema,
  /** A server asks the person for input; never recorded in a session's log. */
  'mcp.elicitation.asked': elicitationSchema,
  /** The request was answered, declined, cancelled or given up: its dialog closes. */
  'mcp.elicitation.resolved': z.object({ elicitationId: z.string(), workspace: z.string() })
} satisfies Record<string, z.ZodType>
