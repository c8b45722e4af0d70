import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { createCore, type Core, type CoreOptions } from '../core'
import { dataDirectory } from '../settings/data-dir'
import { UsageError, type CliArgs } from './args'

/** The core as every CLI command builds it: MECATL_HOME, --config and --mode honoured. */
export async function cliCore(
  args: CliArgs,
  extra: Partial<CoreOptions> & Pick<CoreOptions, 'host' | 'interactive'>
): Promise<Core> {
  return createCore({
    dataDir: dataDirectory(),
    configPath: configPath(args),
    modeOverride: args.mode,
    autoApprove: args.yes,
    trustProject: args.trustProject,
    shell: !args.noShell,
    userModel: !args.noUserModel,
    websearch: !args.noWebsearch,
    skills: !args.noSkills,
    ...extra
  })
}

function configPath(args: CliArgs): string | undefined {
  if (!args.config) return undefined
  const resolved = path.resolve(args.config)
  if (!existsSync(resolved)) throw new UsageError(`--config: ${resolved} does not exist`)
  return resolved
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
