import type { EventFrame } from '../../../shared/contract/bridge'
import type { ToolCallView } from '../../../shared/domain'
import { createProvider } from '../../providers/create-provider'
import type { Provider } from '../../providers/provider'
import { createMemoryPair } from '../../rpc/memory-transport'
import { UsageError, type CliArgs } from '../args'
import { cliCore, requireWorkspace } from '../context'

const FLAG_PROVIDER_ID = 'cli'

/**
 * `run 'PROMPT'`: a headless session through the same router the window uses. With --json every
 * event is printed as one JSON line with its `type`; otherwise the reply streams to stdout and
 * tool calls are summarised on stderr. Exits 0 when the turn completes, 1 when it fails.
 */
export async function runCommand(args: CliArgs): Promise<number> {
  const [prompt, ...extra] = args.positionals
  if (!prompt) throw new UsageError("run needs a prompt: run 'Summarise README.md' --workspace .")
  if (extra.length > 0) throw new UsageError('run takes one prompt; quote it')
  const workspace = requireWorkspace(args)
  const flagged = providerFromFlags(args)
  const core = await cliCore(args, {
    host: 'cli',
    interactive: false,
    workspace,
    defaultModel: flagged ? { providerId: FLAG_PROVIDER_ID, model: flagged.model } : undefined,
    providerFor: (ref) => (flagged && ref.providerId === FLAG_PROVIDER_ID ? flagged.provider : null)
  })
  const client = createMemoryPair(core.router, core.hub, 'cli')
  const finished = new Promise<number>((resolve) => {
    client.subscribe((frame) => {
      if (args.json)
        console.log(JSON.stringify({ type: frame.event, ...(frame.payload as object) }))
      else printHuman(frame)
      if (frame.event === 'turn.completed') resolve(0)
      if (frame.event === 'turn.failed') resolve(1)
    })
  })
  const onSignal = (): void => void core.sessions.dispose()
  process.once('SIGINT', onSignal)
  const session = await client.call('session.create', { workspace, profile: args.profile })
  await client.call('session.send', { sessionId: session.id, text: prompt })
  const code = await finished
  await core.sessions.idle(session.id)
  client.close()
  await core.dispose()
  return code
}

function providerFromFlags(args: CliArgs): { provider: Provider; model: string } | null {
  if (!args.provider && !args.baseUrl && !args.model) return null
  if (!args.model) throw new UsageError('--provider and --base-url need --model ID as well')
  const kind =
    args.provider === 'anthropic' ? 'anthropic' : args.baseUrl ? 'openai-compatible' : 'openai'
  const provider = createProvider(
    {
      id: FLAG_PROVIDER_ID,
      kind,
      base_url: args.baseUrl,
      api_key_env: kind === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY',
      models: [args.model]
    },
    { env: process.env }
  )
  return { provider, model: args.model }
}

function printHuman(frame: EventFrame): void {
  const payload = frame.payload as Record<string, unknown>
  if (frame.event === 'message.delta') process.stdout.write(String(payload.delta))
  if (frame.event === 'transcript.item') {
    const item = payload.item as { kind: string; call?: ToolCallView; streaming?: boolean }
    if (item.kind === 'assistant' && item.streaming === false) process.stdout.write('\n')
    if (item.kind === 'tool' && item.call && item.call.state !== 'running') {
      const call = item.call
      const note = call.state === 'awaiting-approval' ? 'asking' : call.state
      process.stderr.write(
        `[${call.name}] ${note}${call.refusedBy ? ` (${call.refusedBy})` : ''}\n`
      )
    }
  }
  if (frame.event === 'turn.failed') process.stderr.write(`error: ${String(payload.error)}\n`)
}
