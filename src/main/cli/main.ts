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
import { ExitCode } from './exit'
import { McpCollisionError } from './mcp-collisions'
import { SettingsInvalidError } from './settings-check'
import { dataDirectory, DataDirError } from '../settings/data-dir'
import { unusableStore } from '../store/store-failure'
import { storePath } from '../store/store'
import { printError, printLine } from './print'

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

/**
 * Runs one `mecatl` command line and answers its exit code. The process around it (entry.ts)
 * ends once the output is flushed; the testing harness runs it in-process.
 */
export async function mecatl(argv: readonly string[]): Promise<number> {
  try {
    const args = parseCliArgs(argv)
    if (args.help || args.command === 'help') {
      printLine(usage)
      return ExitCode.ok
    }
    const command = args.command ? commands[args.command] : undefined
    if (!command) {
      throw new UsageError(args.command ? `unknown command "${args.command}"` : 'no command given')
    }
    return await command(args)
  } catch (error) {
    if (error instanceof UsageError) {
      printError(`mecatl: ${error.message}\n\n${usage}`)
      return ExitCode.usage
    }
    if (
      error instanceof SettingsInvalidError ||
      error instanceof DataDirError ||
      error instanceof McpCollisionError
    ) {
      printError(`mecatl: ${error.message}`)
      return ExitCode.usage
    }
    if (error instanceof ProviderConfigError || error instanceof KeyFileError) {
      printError(`mecatl: ${error.message}`)
      return ExitCode.failed
    }
    // Found damaged at the start, or only by a read once the command ran.
    const store = unusableStore(error, storePath(dataDirectory()))
    if (store) {
      printError(`mecatl: ${store.message}`)
      return ExitCode.failed
    }
    throw error
  }
}
