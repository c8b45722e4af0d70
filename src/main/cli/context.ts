import { existsSync, lstatSync, statSync } from 'node:fs'
import path from 'node:path'
import { createCore, type Core, type CoreOptions } from '../core'
import { dataDirectory } from '../settings/data-dir'
import { UsageError, type CliArgs } from './args'
import { launchOptions } from './launch-flags'
import { SettingsInvalidError, checkSettings, userSettingsFile } from './settings-check'
import { printError } from './print'

/**
 * The core as every CLI command builds it: MECATL_HOME, --config and --mode honoured. Settings
 * that do not validate stop every command but `serve`, which is the app: it starts and shows the
 * problems in the window, running on the last valid copy (or no turn at all without one).
 */
export async function cliCore(
  args: CliArgs,
  extra: Partial<CoreOptions> & Pick<CoreOptions, 'host' | 'interactive'>
): Promise<Core> {
  const dataDir = dataDirectory()
  const config = configPath(args)
  const launch = launchOptions(args, extra.env ?? process.env)
  const { problems, user } = await checkSettings(
    userSettingsFile(dataDir, config),
    extra.workspace ?? null
  )
  if (problems && extra.host !== 'browser') throw new SettingsInvalidError(problems)
  if (problems) printError(`mecatl: ${problems}\nThe window shows these until they are fixed.`)
  return createCore({
    dataDir,
    configPath: config,
    // What was checked is what the core loads: the file is not read a second time.
    settingsRead: user,
    modeOverride: args.mode,
    autoApprove: args.yes,
    trustProject: args.trustProject,
    shell: !args.noShell,
    userModel: !args.noUserModel,
    websearch: !args.noWebsearch,
    skills: !args.noSkills,
    ...launch,
    ...extra
  })
}

/**
 * For commands that read only the store (sessions, memory): they use no setting, but a settings
 * file given to them that does not validate still stops them, as it stops every command.
 */
export async function requireValidSettings(args: CliArgs): Promise<string> {
  const dataDir = dataDirectory()
  const { problems } = await checkSettings(userSettingsFile(dataDir, configPath(args)), null)
  if (problems) throw new SettingsInvalidError(problems)
  return dataDir
}

function configPath(args: CliArgs): string | undefined {
  if (!args.config) return undefined
  const resolved = path.resolve(args.config)
  // A link to nothing is there: reading it says what is wrong (see openSettingsFile).
  if (!existsSync(resolved) && !isThere(resolved)) {
    throw new UsageError(`--config: ${resolved} does not exist`)
  }
  return resolved
}

function isThere(file: string): boolean {
  try {
    lstatSync(file)
    return true
  } catch {
    return false
  }
}

/** The --workspace folder, required and proved to be a directory. */
export function requireWorkspace(args: CliArgs): string {
  if (!args.workspace) throw new UsageError(`${args.command} needs --workspace DIR`)
  const resolved = path.resolve(args.workspace)
  if (!existsSync(resolved) || !statSync(resolved).isDirectory()) {
    throw new UsageError(`--workspace: ${resolved} is not a folder`)
  }
  return resolved
}
