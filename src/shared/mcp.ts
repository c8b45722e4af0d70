import { z } from 'zod'
import { capabilitiesSchema, toolDescriptorSchema } from './domain'
import { mcpAuthSchema, mcpHeadersSchema, mcpTransports, mcpUrlSchema } from './mcp-remote'
import { sandboxNetworks } from './sandbox'
import { uniqueKeys } from './unique-keys'

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable')

// Names that change how programs load code: passing them through would let whatever set them in
// the app's environment run code inside every MCP server.
const refusedExact = ['LD_PRELOAD', 'NODE_OPTIONS', 'BASH_ENV', 'PYTHONPATH']
const refusedPrefixes = ['DYLD_', 'BASH_FUNC_']

/** Why `name` may not be passed through to an MCP server, or null when it may. */
export function refusedPassthrough(name: string): string | null {
  const upper = name.toUpperCase()
  const hit =
    refusedExact.includes(upper) || refusedPrefixes.some((prefix) => upper.startsWith(prefix))
  if (!hit) return null
  return `${name} changes how programs load code, so it is never passed through to an MCP server; remove it from env_passthrough (if the server truly needs it, give it an explicit value under env)`
}

/** Capabilities a server's settings force on its tools; they only ever widen what tools declare. */
export const mcpForceSchema = z
  .object({
    privateData: z.boolean().optional(),
    untrustedInput: z.boolean().optional(),
    egress: capabilitiesSchema.shape.egress.optional(),
    destructive: z.boolean().optional()
  })
  .strict()
export type McpForce = z.infer<typeof mcpForceSchema>

/** Settings only a server this machine runs (`command`) has: how it is started and confined. */
const LOCAL_ONLY = ['args', 'env', 'env_passthrough', 'sandbox', 'network'] as const
/** Settings only a server reached at an address (`url`) has. */
const REMOTE_ONLY = ['transport', 'headers', 'auth'] as const

/**
 * One MCP server as the settings files configure it (key `mcp`): a program this machine runs
 * and talks to over stdio (`command`, `args`…), or a server at an address (`url`, over
 * streamable HTTP or the legacy SSE transport, with static `headers` and `auth`).
 */
export const mcpServerSettingsSchema = z
  .object({
    name: z
      .string()
      .min(1, 'give the server a name')
      .max(40, 'keep the name under 40 characters: it is part of every tool name')
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'use letters, digits, "_" or "-"')
      .refine((name) => !name.includes('__'), {
        message: 'a name cannot contain "__": tools are named mcp__<server>__<tool>'
      }),
    command: z.string().min(1, 'give the program to run, e.g. npx or node').optional(),
    /** A remote server's address (see mcpUrlSchema). */
    url: mcpUrlSchema.optional(),
    /** Unset: streamable HTTP, falling back to the legacy SSE transport for an old server. */
    transport: z.enum(mcpTransports).optional(),
    headers: mcpHeadersSchema.optional(),
    auth: mcpAuthSchema.optional(),
    args: z.array(z.string()).default([]),
    env: z.record(envName, z.string()).default({}),
    env_passthrough: z
      .array(envName)
      .default([])
      .superRefine((names, ctx) => {
        names.forEach((name, i) => {
          const why = refusedPassthrough(name)
          if (why) ctx.addIssue({ code: 'custom', path: [i], message: why })
        })
      }),
    prefix_tools: z.boolean().default(true),
    enabled: z.boolean().default(true),
    force: mcpForceSchema.default({}),
    sandbox: z.boolean().default(false),
    /** With `sandbox: true`: this server's network, over the global `sandbox.network`. */
    network: z.enum(sandboxNetworks).optional(),
    /**
     * `lazy`: the server's tools are not sent to the model until it finds them with ToolSearch,
     * so a server of many tools does not fill the prompt. Unset: sent from the start.
     */
    disclose: z.enum(['eager', 'lazy']).optional(),
    /** Tools of the server (its own names, as it lists them) left out of the catalog. */
    disabled_tools: z.array(z.string().min(1)).default([])
  })
  .strict()
  .superRefine((server, ctx) => {
    if ((server.command === undefined) === (server.url === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [server.url === undefined ? 'command' : 'url'],
        message:
          server.url === undefined
            ? 'give the program to run (command), or the address of a remote server (url)'
            : 'give either a command (a server this machine runs) or a url (a remote server), not both'
      })
      return
    }
    const [kind, others] =
      server.url === undefined
        ? (['a server run by command', REMOTE_ONLY] as const)
        : (['a remote server (url)', LOCAL_ONLY] as const)
    for (const key of others) {
      const value: unknown = server[key]
      const set =
        value !== undefined &&
        value !== false &&
        !(Array.isArray(value) && value.length === 0) &&
        !(typeof value === 'object' && value !== null && Object.keys(value).length === 0)
      if (set) {
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} does not apply to ${kind}` })
      }
    }
  })
export type McpServerSettings = z.infer<typeof mcpServerSettingsSchema>
export type McpServerSettingsInput = z.input<typeof mcpServerSettingsSchema>

/** Reports a server name used twice in one list; `where` is the list's settings key. */
export function checkUniqueServerNames(
  servers: readonly { name: string }[],
  ctx: z.RefinementCtx,
  where = 'mcp'
): void {
  const names = uniqueKeys(ctx, where, 'the MCP server', 'name')
  servers.forEach((server, i) => names.meet(server.name, i))
}

/** The slash command that offers a server's prompt in the chat input. */
export function promptCommand(server: string, prompt: string): string {
  return `/mcp__${server}__${prompt}`
}

export const mcpServerStateSchema = z.enum([
  'disabled',
  'untrusted',
  'idle',
  'starting',
  'ready',
  'restarting',
  'failed',
  /** A remote server that wants the person to sign in (OAuth): its tools wait for that. */
  'needs-sign-in'
])
export type McpServerState = z.infer<typeof mcpServerStateSchema>

export const mcpPromptSchema = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  arguments: z.array(
    z.object({ name: z.string(), description: z.string().nullable(), required: z.boolean() })
  )
})
export type McpPrompt = z.infer<typeof mcpPromptSchema>

export const mcpResourceSchema = z.object({
  uri: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  mimeType: z.string().nullable()
})
export type McpResource = z.infer<typeof mcpResourceSchema>

/** One server as the window shows it: its settings, what it is doing, and what it offers. */
export const mcpServerViewSchema = z.object({
  name: z.string(),
  origin: z.enum(['user', 'project']),
  /** The program run; null for a remote server. */
  command: z.string().nullable(),
  args: z.array(z.string()),
  /** A remote server's address; null for one this machine runs. */
  url: z.string().nullable(),
  /** The transport spoken (a remote one's once connected, or as set); null: not known yet. */
  transport: z.enum(['stdio', 'http', 'sse']).nullable(),
  /** The names of a remote server's static headers (their values are never shown). */
  headerNames: z.array(z.string()),
  auth: z.enum(['none', 'bearer', 'oauth']),
  /** A remote server's OAuth sign-in; null for one that has never asked for it. */
  oauth: z
    .object({
      state: z.enum(['signed-out', 'signing-in', 'signed-in']),
      /** When the access token runs out (ms since the epoch); null: the server did not say. */
      expiresAt: z.number().nullable(),
      /** Why the last sign-in or refresh failed, in a sentence; null: it did not. */
      error: z.string().nullable(),
      /** The login worked, then was revoked or ran out beyond refreshing: sign in again. */
      lost: z.boolean()
    })
    .nullable(),
  envNames: z.array(z.string()),
  enabled: z.boolean(),
  sandbox: z.boolean(),
  state: mcpServerStateSchema,
  error: z.string().nullable(),
  pid: z.number().nullable(),
  restarts: z.number(),
  tools: z.array(toolDescriptorSchema),
  /** Each tool's own name at its server (what `disabled_tools` lists), by its name in the catalog. */
  toolNames: z.record(z.string(), z.string()),
  /** The server's tools switched off in the settings (`disabled_tools`), with what they do. */
  offTools: z.array(z.object({ name: z.string(), description: z.string() })),
  resources: z.array(mcpResourceSchema),
  prompts: z.array(mcpPromptSchema),
  /** How many log lines were ever written, so a log pane knows when to read again. */
  logCount: z.number()
})
export type McpServerView = z.infer<typeof mcpServerViewSchema>

export const mcpStatusSchema = z.object({
  /** The project folder the servers run in; null when no folder is open (they are not started). */
  workspace: z.string().nullable(),
  projectFile: z.string().nullable(),
  servers: z.array(mcpServerViewSchema),
  /** Problems with the project's settings file, and project servers clashing with the user's. */
  issues: z.array(z.object({ path: z.string(), message: z.string() }))
})
export type McpStatus = z.infer<typeof mcpStatusSchema>

export const mcpLogLineSchema = z.object({
  at: z.number(),
  /** `stderr` is what the server printed; `event` is what Mecatl observed (start, exit, restart). */
  stream: z.enum(['stderr', 'event']),
  text: z.string()
})
export type McpLogLine = z.infer<typeof mcpLogLineSchema>
