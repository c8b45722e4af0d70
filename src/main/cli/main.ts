import { ProviderConfigError } from '../providers/create-provider'
import { KeyFileError } from '../providers/key-file'
import { parseCliArgs, usage, UsageError, type CliArgs } from './args'
import { callCommand } from './commands/call'
import { checkpointsCommand } from './commands/checkpoints'
import { keysCommand } from './commands/keys'
import { memoryCommand } from './commands/memory'
import { rulesCommand } from './commands/rules'
import { runCommand } from './commands/run'
import { serveCommand } from './commands/serve'
import { sessionsCommand } from './commands/sessions'
import { toolsCommand } from './commands/tools'
import { ExitCode, exitWhenFlushed } from './exit'
import { McpCollisionError } from './mcp-collisions'
import { SettingsInvalidError } from './settings-check'
import { DataDirError } from '../settings/data-dir'

const commands: Record<string, (args: CliArgs) => Promise<number>> = {
  tools: toolsCommand,
  call: callCommand,
  run: runCommand,
  serve: serveCommand,
  rules: rulesCommand,
  memory: memoryCommand,
  sessions: sessionsCommand,
  checkpoints: checkpointsCommand,
  keys: keysCommand
}

/** The headless entry: the same core as the window, for scripting, smoke tests and CI. */
async function main(argv: readonly string[]): Promise<number> {
  try {
    const args = parseCliArgs(argv)
    if (args.help || args.command === 'help') {
      console.log(usage)
      return ExitCode.ok
    }
    const command = args.command ? commands[args.command] : undefined
    if (!command) {
      throw new UsageError(args.command ? `unknown command "${args.command}"` : 'no command given')
    }
    return await command(args)
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`mecatl: ${error.message}\n\n${usage}`)
      return ExitCode.usage
    }
    if (
      error instanceof SettingsInvalidError ||
      error instanceof DataDirError ||
      error instanceof McpCollisionError
    ) {
      console.error(`mecatl: ${error.message}`)
      return ExitCode.usage
    }
    if (error instanceof ProviderConfigError || error instanceof KeyFileError) {
      console.error(`mecatl: ${error.message}`)
      return ExitCode.failed
    }
    throw error
  }
}

// A reader that closed early (`| head`) must not turn into an unhandled 'error' event.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined)

main(process.argv.slice(2)).then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    console.error('mecatl: unexpected failure:', error)
    return exitWhenFlushed(ExitCode.failed)
  }
)
