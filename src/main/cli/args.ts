import { parseArgs } from 'node:util'
import { approvalModeSchema, type ApprovalMode } from '../../shared/domain'

/** A mistake in how the CLI was called: printed with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export const usage = `Usage: npm run -s mecatl -- <command> [options]

Commands:
  tools [--json | --schema]            list the tools the model gets
  call TOOL 'JSON' --workspace DIR     run one tool call through the gate and dispatcher
       [--mode allow|read-only|ask]
  run 'PROMPT' --workspace DIR         run a headless session until the model stops
       [--provider openai|anthropic] [--base-url URL] [--model ID]
       [--mode allow|read-only|ask] [--json]
  serve [--workspace DIR] [--port N]   start browser mode on 127.0.0.1

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
    help: values.help ?? false
  }
}
