import { parseArgs } from 'node:util'
import { approvalModeSchema, type ApprovalMode } from '../../shared/domain'
import { sessionProfileSchema, type SessionProfile } from '../../shared/session-profile'

/** A mistake in how the CLI was called: printed with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export const usage = `Usage: npm run -s mecatl -- <command> [options]

Commands:
  tools [--json | --schema]            list the tools the model gets, with the MCP servers'
       [--workspace DIR]               of DIR (default: the current folder)
  call TOOL 'JSON' --workspace DIR     run one tool call through the gate and dispatcher
       [--mode allow|read-only|ask]
  run 'PROMPT' --workspace DIR         run a headless session until the model stops
       [--provider openai|anthropic] [--base-url URL] [--model ID]
       [--mode allow|read-only|ask] [--json]
       [--profile no-fs]               no-fs: no file, shell or delegation tools
  serve [--workspace DIR] [--port N]   start browser mode on 127.0.0.1
  rules check 'COMMAND' [--json]       the permission decision for a shell command, and why
       [--workspace DIR]
  memory search 'QUERY' [--user]       search the project memory of --workspace DIR (default:
       [--workspace DIR] [--json]      the current folder), or with --user the user model
  sessions list [--workspace DIR]      the recorded sessions of DIR (default: the current folder)
  sessions show ID [--json]            one session's transcript (an id prefix is enough)
  sessions export ID                   its events as JSONL (as run --json prints them) or Markdown
       [--format jsonl|md]
  checkpoints list [--session ID]      the checkpoints of --workspace DIR (default: the current
  checkpoints diff ID                  folder); what changed since one; put its files back
  checkpoints restore ID [--files PATH…] (a restore is itself undone by restoring the one it prints;
       [--yes]                         --yes replaces files changed outside the agent since)

call and run take --yes: allow what the mode would ask a person about (never past a forbid or
prompt rule, read-only mode, or the interlock).

A project's own MCP servers (.mecatl/settings.yaml) run only once trusted in the window;
--trust-project runs them for this one command. A folder not trusted in the window is
untrusted: what is read from it counts as untrusted input (the interlock then refuses sends
the model aims); --trust-project also trusts the folder for this one command (nothing is stored).

--no-shell leaves Shell and ShellStatus out of the catalog (tools, call, run and serve), as
\`shell: {enabled: false}\` in the settings does. --no-user-model leaves out the user-model
memory tools (RememberUser, RecallUser, SearchUserModel…), as \`user_model: {enabled: false}\` does.
--websearch=off leaves out WebSearch and WebOpen, as \`websearch: {enabled: false}\` does.
--no-skills leaves the Skill tool out, as \`skills: {enabled: false}\` does. AskUser is only
offered where a person can answer (serve), never in tools, call or run.

Every command takes --config FILE (a settings file used instead of the user's) and honours
MECATL_HOME (where settings and state live).`

const options = {
  json: { type: 'boolean' },
  schema: { type: 'boolean' },
  workspace: { type: 'string' },
  mode: { type: 'string' },
  config: { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  port: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'trust-project': { type: 'boolean' },
  'no-shell': { type: 'boolean' },
  'no-user-model': { type: 'boolean' },
  websearch: { type: 'string' },
  'no-skills': { type: 'boolean' },
  user: { type: 'boolean' },
  format: { type: 'string' },
  profile: { type: 'string' },
  session: { type: 'string' },
  files: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' }
} as const

export interface CliArgs {
  command: string | undefined
  positionals: string[]
  json: boolean
  schema: boolean
  workspace?: string
  mode?: ApprovalMode
  config?: string
  provider?: 'openai' | 'anthropic'
  baseUrl?: string
  model?: string
  port?: number
  /** Allow what the mode would ask a person about; never past forbid, prompt rules or the interlock. */
  yes: boolean
  /** Run the project's own MCP servers without the window's trust prompt (not remembered). */
  trustProject: boolean
  /** `--no-shell`: no Shell or ShellStatus tools. */
  noShell: boolean
  /** `--no-user-model`: no user-scope memory tools. */
  noUserModel: boolean
  /** `--websearch=off`: no WebSearch or WebOpen. */
  noWebsearch: boolean
  /** `--no-skills`: no Skill tool. */
  noSkills: boolean
  /** `memory search --user`: the user model instead of the project's memory. */
  user: boolean
  /** `sessions export --format jsonl|md`. */
  format?: string
  /** `run --profile no-fs`: a session without file, shell or delegation tools. */
  profile?: SessionProfile
  /** `checkpoints list --session ID`. */
  session?: string
  /** `checkpoints restore ID --files PATH…`: the paths follow as positionals. */
  files: boolean
  help: boolean
}

export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  const [command, ...rest] = positionals
  const mode = values.mode === undefined ? undefined : approvalModeSchema.safeParse(values.mode)
  if (mode && !mode.success) {
    throw new UsageError(`--mode must be allow, read-only or ask (got "${values.mode}")`)
  }
  if (
    values.provider !== undefined &&
    values.provider !== 'openai' &&
    values.provider !== 'anthropic'
  ) {
    throw new UsageError(`--provider must be openai or anthropic (got "${values.provider}")`)
  }
  const profile =
    values.profile === undefined ? undefined : sessionProfileSchema.safeParse(values.profile)
  if (profile && !profile.success) {
    throw new UsageError(`--profile must be default or no-fs (got "${values.profile}")`)
  }
  let port: number | undefined
  if (values.port !== undefined) {
    port = Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(`--port must be a port number from 0 to 65535 (got "${values.port}")`)
    }
  }
  return {
    command,
    positionals: rest,
    json: values.json ?? false,
    schema: values.schema ?? false,
    workspace: values.workspace,
    mode: mode?.data,
    config: values.config,
    provider: values.provider,
    baseUrl: values['base-url'],
    model: values.model,
    port,
    yes: values.yes ?? false,
    trustProject: values['trust-project'] ?? false,
    noShell: values['no-shell'] ?? false,
    noUserModel: values['no-user-model'] ?? false,
    noWebsearch: websearchFlag(values.websearch),
    noSkills: values['no-skills'] ?? false,
    user: values.user ?? false,
    format: values.format,
    profile: profile?.data,
    session: values.session,
    files: values.files ?? false,
    help: values.help ?? false
  }
}

function websearchFlag(value: string | undefined): boolean {
  if (value === undefined || value === 'on') return false
  if (value === 'off') return true
  throw new UsageError(`--websearch must be on or off (got "${value}")`)
}
