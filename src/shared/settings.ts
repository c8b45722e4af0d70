import { z } from 'zod'
import { approvalModeSchema } from './domain'
import { checkUniqueServerNames, mcpServerSettingsSchema } from './mcp'
import { checkDelegation, subagentProfileSchema, teamSchema } from './subagents'
import { uniqueKeys } from './unique-keys'
import { websearchDefaults, websearchSettingsSchema } from './websearch'
import { checkpointDefaults, checkpointSettingsSchema } from './checkpoints'
import { sandboxDefaults, sandboxSettingsSchema } from './sandbox'
import { temporaryStorageDefaults, temporaryStorageSchema } from './temporary-storage'
import { checkReasoning, modelReasoningSchema } from './reasoning'
import { priceSettingsSchema } from './model-prices'
import { appearanceDefaults, appearanceSettingsSchema } from './appearance'
import { mecatlKeyNames } from './command-env'

/** The name of an environment variable; also the rule for names in the CLI's key file. */
export const envVarName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, not a key')

export const providerKindSchema = z.enum(['anthropic', 'openai', 'openai-compatible'])
export type ProviderKind = z.infer<typeof providerKindSchema>

/** A provider never holds a key: only the name of the variable (or stored secret) that does. */
export const providerSettingsSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .regex(/^[a-z0-9][a-z0-9._-]*$/, 'use lowercase letters, digits, ".", "_" or "-"'),
    kind: providerKindSchema,
    base_url: z.url().optional(),
    api_key_env: envVarName.optional(),
    api_key_secret: z.string().min(1).optional(),
    models: z.array(z.string().min(1)).default([]),
    /** Context window in tokens per model, for models the built-in table does not know. */
    context_windows: z.record(z.string().min(1), z.number().int().positive()).optional(),
    /** Models of this provider that take images, for models the built-in list does not know. */
    image_models: z.array(z.string().min(1)).optional(),
    /**
     * Prompt caching: `5m` (the default) or `1h` cache lifetime for Anthropic's breakpoints, `off`
     * for none; for OpenAI, `off` stops sending the session's `prompt_cache_key`.
     */
    prompt_cache: z.enum(['off', '5m', '1h']).optional(),
    /** Thinking budget (Anthropic) or reasoning effort (OpenAI) per model; absent: off. */
    reasoning: z.record(z.string().min(1), modelReasoningSchema).optional(),
    /** US dollars per million tokens per model, over the built-in table (shared/model-prices). */
    prices: z.record(z.string().min(1), priceSettingsSchema).optional(),
    /**
     * OpenAI-compatible only: tool calls a model writes as text (`<tool_call>{…}</tool_call>`,
     * fenced JSON) are taken as calls when its reply has none; `false` turns that off.
     */
    text_tool_calls: z.boolean().optional()
  })
  .strict()
  .superRefine((p, ctx) => {
    checkReasoning(p.kind, p.reasoning ?? {}, ctx)
    if (p.text_tool_calls !== undefined && p.kind !== 'openai-compatible') {
      ctx.addIssue({
        code: 'custom',
        path: ['text_tool_calls'],
        message: `text_tool_calls is for OpenAI-compatible providers; ${p.kind} sends real tool calls, so remove it`
      })
    }
    if (p.kind === 'openai-compatible' && !p.base_url) {
      ctx.addIssue({
        code: 'custom',
        path: ['base_url'],
        message:
          'an OpenAI-compatible provider needs a base URL (for Ollama: http://127.0.0.1:11434/v1)'
      })
    }
  })
export type ProviderSettings = z.infer<typeof providerSettingsSchema>

/** A permission rule: `command` (Shell only) is an argv prefix written as shell words. */
export const permissionRuleSchema = z
  .object({
    tool: z.string().min(1),
    command: z.string().min(1).optional(),
    decision: z.enum(['allow', 'prompt', 'forbid']),
    /** Example commands this rule must match, checked when the settings load. */
    match: z.array(z.string().min(1)).optional(),
    /** Example commands this rule must not match. */
    not_match: z.array(z.string().min(1)).optional()
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.command !== undefined && rule.tool !== 'Shell') {
      ctx.addIssue({
        code: 'custom',
        path: ['command'],
        message: `\`command\` is for Shell rules; a ${rule.tool} rule applies to the whole tool`
      })
    }
  })
export type PermissionRuleSettings = z.infer<typeof permissionRuleSchema>

export const permissionsSchema = z
  .object({
    mode: approvalModeSchema.default('ask'),
    rules: z.array(permissionRuleSchema).default([])
  })
  .strict()

export const hookSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    tools: z.array(z.string().min(1)).default([]),
    timeout_ms: z.number().int().positive().max(120_000).default(10_000)
  })
  .strict()

export const settingsSchema = z
  .object({
    providers: z.array(providerSettingsSchema).default([]),
    default_model: z
      .object({ provider: z.string().min(1), model: z.string().min(1) })
      .strict()
      .optional(),
    permissions: permissionsSchema.default({ mode: 'ask', rules: [] }),
    /** Commands that see each pending call and may refuse it (they can never approve). */
    hooks: z.array(hookSchema).default([]),
    /** Refuse every send off the machine once private data has entered a conversation. */
    block_sends_after_private: z.boolean().default(false),
    max_tokens: z.number().int().positive().default(8192),
    /**
     * Seconds a model provider may send nothing, mid-reply or before it, before the turn fails
     * (at most 300: Node's HTTP client itself gives up on a silent server then).
     */
    provider_idle_timeout_s: z.number().int().min(1).max(300).default(90),
    /** Times a request that was rate limited, overloaded, a 5xx or cut off is tried again. */
    provider_max_retries: z.number().int().min(0).max(10).default(4),
    /** The first backoff wait before a retry (doubling, jittered); a 429's retry-after wins. */
    provider_retry_base_ms: z.number().int().min(10).max(60_000).default(1000),
    /** `enabled: false` takes Shell and ShellStatus out of the next turn's tools. */
    shell: z
      .object({
        enabled: z.boolean().default(true),
        /**
         * Variables of Mecatl's environment that commands get beside PATH, HOME, USER, SHELL,
         * LANG/LC_* and TZ (see shared/command-env.ts); never a provider's or search key.
         */
        env_passthrough: z.array(envVarName).default([])
      })
      .strict()
      .default({ enabled: true, env_passthrough: [] }),
    /** How Shell (and MCP servers with `sandbox: true`) are confined: see src/shared/sandbox.ts. */
    sandbox: sandboxSettingsSchema.default(sandboxDefaults),
    /** Where Shell commands get their TMPDIR (see src/shared/temporary-storage.ts). */
    temporary_storage: temporaryStorageSchema.default(temporaryStorageDefaults),
    /** Checkpoints of the project folder's files, so any change the agent made can be undone. */
    checkpoints: checkpointSettingsSchema.default(checkpointDefaults),
    /** `enabled: false` takes the user-model memory tools (RememberUser…) out of the next turn. */
    user_model: z
      .object({ enabled: z.boolean().default(true) })
      .strict()
      .default({ enabled: true }),
    /**
     * Desktop notifications when a turn ends or an approval or a question waits while the window
     * is in the background; `enabled: false` turns them off.
     */
    notifications: z
      .object({ enabled: z.boolean().default(true) })
      .strict()
      .default({ enabled: true }),
    /** Light, dark or following the system (see src/shared/appearance.ts). */
    appearance: appearanceSettingsSchema.default(appearanceDefaults),
    /** `enabled: false` removes Skill and SkillDraft (skills stay usable as slash commands). */
    skills: z
      .object({ enabled: z.boolean().default(true) })
      .strict()
      .default({ enabled: true }),
    /**
     * Bytes of tool output one turn's calls may add to the conversation together; unset, an
     * eighth of the model's context window (at about 3 bytes a token).
     */
    tool_output_budget_bytes: z.number().int().min(1024).optional(),
    /**
     * Input tokens past which older messages are summarised (compaction); unset, three quarters
     * of the model's context window.
     */
    compact_at_tokens: z.number().int().positive().optional(),
    /**
     * Tool names or globs (`mcp__github__*`) left out of what the model is sent until it finds
     * them with ToolSearch.
     */
    disclosable_tools: z.array(z.string().min(1)).optional(),
    /** MCP servers: programs whose tools join the catalog (see src/shared/mcp.ts). */
    mcp: z.array(mcpServerSettingsSchema).default([]),
    /** Sub-agent profiles, each offered to the model as a tool (see src/shared/subagents.ts). */
    subagents: z.array(subagentProfileSchema).default([]),
    /** Named crews of sub-agents under a lead, offered through the Team tool. */
    teams: z.array(teamSchema).default([]),
    /** WebSearch's chain of backends (see src/shared/websearch.ts); keys are variable names. */
    websearch: websearchSettingsSchema.default(websearchDefaults),
    /** An IANA time zone (e.g. Europe/Paris); MCP servers get it as MECATL_TZ. */
    time_zone: z
      .string()
      .refine(isTimeZone, 'use an IANA time zone name such as Europe/Paris or UTC')
      .optional()
  })
  .strict()
  .superRefine((s, ctx) => {
    checkUniqueServerNames(s.mcp, ctx)
    checkDelegation(s, ctx)
    checkCommandEnv(s, ctx)
    const ids = uniqueKeys(ctx, 'providers', 'provider', 'id')
    s.providers.forEach((p, i) => ids.meet(p.id, i))
    if (s.default_model && !ids.seen.has(s.default_model.provider)) {
      ctx.addIssue({
        code: 'custom',
        path: ['default_model', 'provider'],
        message: `no provider has the id "${s.default_model.provider}"`
      })
    }
  })
export type Settings = z.infer<typeof settingsSchema>
export type SettingsInput = z.input<typeof settingsSchema>

/** A key Mecatl reads for itself never reaches a command, whatever lists it. */
function checkCommandEnv(s: Settings, ctx: z.RefinementCtx): void {
  const keys = mecatlKeyNames(s)
  s.shell.env_passthrough.forEach((name, i) => {
    if (!keys.has(name)) return
    ctx.addIssue({
      code: 'custom',
      path: ['shell', 'env_passthrough', i],
      message: `${name} holds a key Mecatl itself uses (a provider's or a search backend's), so commands never get it: whatever a command can print, the model reads. Remove it from the list.`
    })
  })
  s.mcp.forEach((server, i) => {
    if (!server.sandbox) return
    server.env_passthrough.forEach((name, j) => {
      if (!keys.has(name)) return
      ctx.addIssue({
        code: 'custom',
        path: ['mcp', i, 'env_passthrough', j],
        message: `${name} holds a key Mecatl itself uses, so a sandboxed server never gets it. Remove it from env_passthrough, or give the server a key of its own under a variable of its own.`
      })
    })
  })
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/**
 * A project's own settings, `<project>/.mecatl/settings.yaml`: only what a project may set.
 * Project MCP servers start only once the person trusts them for that project.
 */
/**
 * What a project folder may set in `.mecatl/settings.yaml`: its MCP servers and permission rules.
 * Never the approval mode, never providers or hooks: a cloned repository must not loosen them.
 */
export const projectSettingsSchema = z
  .object({
    mcp: z.array(mcpServerSettingsSchema).default([]),
    permissions: z
      .object({ rules: z.array(permissionRuleSchema).default([]) })
      .strict()
      .default({ rules: [] })
  })
  .strict()
  .superRefine((s, ctx) => checkUniqueServerNames(s.mcp, ctx))
export type ProjectSettings = z.infer<typeof projectSettingsSchema>

export { describeIssues, type SettingsIssue } from './settings-issues'
