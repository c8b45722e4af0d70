import { parseCliArgs, usage, UsageError, type CliArgs } from './args'
import { ExitCode } from './exit'
import { printError, printLine } from './print'

type Command = (args: CliArgs) => Promise<number>

/**
 * Each command's module, loaded when that command runs: `help` loads none of them, and `run`
 * neither the browser server nor the session export. What a command module imports is loaded
 * with it, so keep heavy imports behind the commands that use them (docs/architecture.md,
 * Startup; cli-startup.integration.test.ts fails when one comes back).
 */
const commands: Record<string, () => Promise<Command>> = {
  tools: async () => (await import('./commands/tools')).toolsCommand,
  call: async () => (await import('./commands/call')).callCommand,
  run: async () => (await import('./commands/run')).runCommand,
  serve: async () => (await import('./commands/serve')).serveCommand,
  rules: async () => (await import('./commands/rules')).rulesCommand,
  memory: async () => (await import('./commands/memory')).memoryCommand,
  sessions: async () => (await import('./commands/sessions')).sessionsCommand,
  checkpoints: async () => (await import('./commands/checkpoints')).checkpointsCommand,
  keys: async () => (await import('./commands/keys')).keysCommand
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
    const load = args.command ? commands[args.command] : undefined
    if (!load) {
      throw new UsageError(args.command ? `unknown command "${args.command}"` : 'no command given')
    }
    return await (
      await load()
    )(args)
  } catch (error) {
    if (error instanceof UsageError) {
      printError(`mecatl: ${error.message}\n\n${usage}`)
      return ExitCode.usage
    }
    // What the other failures are is known only to the parts that throw them: loaded with them.
    const { failureExitCode } = await import('./failure')
    return failureExitCode(error)
  }
}
