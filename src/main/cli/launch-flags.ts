import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { searchBackendSchema, type SearchBackend } from '../../shared/websearch'
import type { CoreOptions } from '../core'
import { UsageError, type CliArgs, type WebsearchFlags } from './args'

/** The variable that holds the key of the `--websearch-url` service. */
const KEY_VARIABLE = 'WEBSEARCH_API_KEY'

/**
 * What the launch flags ask of the core beyond the switches: the command line's search service
 * and the operator's folders of skills and commands. Checked here, before anything starts: a
 * folder that is not there, or a header with no key to put in it, stops the command.
 */
export function launchOptions(
  args: CliArgs,
  env: NodeJS.ProcessEnv
): Pick<CoreOptions, 'searchBackend' | 'skillsDirs' | 'commands'> {
  return {
    searchBackend: args.websearchService
      ? commandLineBackend(args.websearchService, env)
      : undefined,
    skillsDirs: args.skillsDirs.map((dir) => folder('--skills-dir', dir)),
    commands: {
      files: !args.noCommands,
      dirs: args.commandsDirs.map((dir) => folder('--commands-dir', dir))
    }
  }
}

/**
 * The `--websearch-url` service. Its key is only ever read from WEBSEARCH_API_KEY (a key on the
 * command line would sit in the shell's history and in every process listing): sent as a bearer
 * token, in the `--websearch-auth-header` header, or not at all when the variable is unset.
 */
export function commandLineBackend(flags: WebsearchFlags, env: NodeJS.ProcessEnv): SearchBackend {
  const hasKey = Boolean(env[KEY_VARIABLE])
  if (flags.authHeader && !hasKey) {
    throw new UsageError(
      `--websearch-auth-header ${flags.authHeader} sends the key in ${KEY_VARIABLE}, which is not set; set it, or drop the flag for a service without a key`
    )
  }
  return searchBackendSchema.parse({
    kind: 'http',
    url: flags.url,
    method: flags.method,
    ...(flags.queryParam ? { query_param: flags.queryParam } : {}),
    auth: flags.authHeader ? 'header' : hasKey ? 'bearer' : 'none',
    ...(flags.authHeader ? { auth_header: flags.authHeader } : {}),
    api_key_env: KEY_VARIABLE
  })
}

function folder(flag: string, dir: string): string {
  const resolved = path.resolve(dir)
  if (!existsSync(resolved) || !statSync(resolved).isDirectory()) {
    throw new UsageError(`${flag}: ${resolved} is not a folder`)
  }
  return resolved
}
