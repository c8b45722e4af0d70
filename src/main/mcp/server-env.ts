import type { McpServerSettings } from '../../shared/mcp'
import { refusedPassthrough } from '../../shared/mcp'
import { JOB_MARKER_VAR, markerValue } from '../jobs/job-marker'

/** What every server gets from the app's environment, when set there. */
export const BASE_ENV_NAMES = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ'] as const

/**
 * The whole environment of one MCP server: PATH, HOME, LANG, LC_ALL and TZ from the app's
 * environment, MECATL_TZ, the variables named in `env_passthrough`, then the literal `env`, and
 * last the server's marker with `token` (see jobs/job-marker.ts), which neither may replace:
 * it is how every process the server starts is found and ended with it. Nothing else. A
 * passthrough name that changes how code loads is skipped even if the settings check was
 * bypassed, and so is one in `never` (Mecatl's own keys, for a sandboxed server).
 */
export function serverEnvironment(
  server: Pick<McpServerSettings, 'env' | 'env_passthrough'>,
  appEnv: NodeJS.ProcessEnv,
  timeZone: string,
  token: string,
  never: ReadonlySet<string> = new Set()
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of BASE_ENV_NAMES) {
    const value = appEnv[name]
    if (value !== undefined) env[name] = value
  }
  env.MECATL_TZ = timeZone
  for (const name of server.env_passthrough) {
    const value = appEnv[name]
    if (value !== undefined && refusedPassthrough(name) === null && !never.has(name)) {
      env[name] = value
    }
  }
  // A Mecatl inside a job or server of another keeps the outer token too (see markerValue).
  return { ...env, ...server.env, [JOB_MARKER_VAR]: markerValue(appEnv[JOB_MARKER_VAR], token) }
}

/** The time zone servers are told: the configured one, else the machine's. */
export function effectiveTimeZone(configured: string | undefined): string {
  return configured ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC'
}
