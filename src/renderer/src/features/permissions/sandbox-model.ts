/** The `sandbox` entry of the settings file as Settings → Permissions edits it. */
export type RawSandbox = Record<string, unknown>

export function sandboxOf(base: Record<string, unknown>): RawSandbox {
  return isRecord(base.sandbox) ? base.sandbox : {}
}

/** The value of one choice, `''` when the file leaves it to the default. */
export function choice(sandbox: RawSandbox, key: 'kind' | 'network'): string {
  const value = sandbox[key]
  return typeof value === 'string' ? value : ''
}

/** The entry with one choice set; `''` takes it out of the file, so the default applies. */
export function withChoice(
  sandbox: RawSandbox,
  key: 'kind' | 'network',
  value: string
): RawSandbox {
  const next = { ...sandbox }
  if (value === '') delete next[key]
  else next[key] = value
  return next
}

/** A list of the entry (hosts, paths) as lines of a text box. */
export function linesOf(sandbox: RawSandbox, key: string): string {
  const value = sandbox[key]
  return Array.isArray(value) ? value.filter((v) => typeof v === 'string').join('\n') : ''
}

/** The entry with a list set from a text box: one item a line, blank lines dropped. */
export function withLines(sandbox: RawSandbox, key: string, text: string): RawSandbox {
  const items = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  const next = { ...sandbox }
  if (items.length === 0) delete next[key]
  else next[key] = items
  return next
}

/** Where Shell stands, as `sandbox.status` answers. */
export interface SandboxStatusView {
  state: 'confined' | 'unconfined' | 'refused' | 'checking'
  text: string
}

/** The badge's warning when Shell is not confined, or null when it is (or not known yet). */
export function sandboxWarning(status: SandboxStatusView | null): string | null {
  if (status?.state === 'unconfined') return 'Shell not confined'
  if (status?.state === 'refused') return 'Shell refused: sandbox broken'
  return null
}

/** Whether the home directory shows its toolchains and caches (`home_defaults`, on unless false). */
export function homeDefaultsOn(sandbox: RawSandbox): boolean {
  return sandbox.home_defaults !== false
}

/** The entry with `home_defaults` set; on is the default, so it leaves the file. */
export function withHomeDefaults(sandbox: RawSandbox, on: boolean): RawSandbox {
  const next = { ...sandbox }
  if (on) delete next.home_defaults
  else next.home_defaults = false
  return next
}

/** How a path given for one project is reached: read, or read and written. */
export type ProjectAccess = 'readable' | 'writable'

/** The paths `sandbox.projects[workspace]` lists, as the file holds them. */
export function projectPaths(
  sandbox: RawSandbox,
  workspace: string
): Record<ProjectAccess, string[]> {
  const entry = projectsOf(sandbox)[workspace]
  const list = (key: ProjectAccess): string[] => {
    const value = isRecord(entry) ? entry[key] : undefined
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  }
  return { readable: list('readable'), writable: list('writable') }
}

/** Why a path cannot be added as it is typed, or null when it can. */
export function pathProblem(text: string): string | null {
  const entry = text.trim()
  if (entry === '') return 'Type the path to add.'
  if (!entry.startsWith('/') && entry !== '~' && !entry.startsWith('~/')) {
    return 'Give a whole path: one starting with / or with ~/ for your home folder.'
  }
  return null
}

/** The entry with one path added for `workspace` alone (a path listed already is kept once). */
export function withProjectPath(
  sandbox: RawSandbox,
  workspace: string,
  access: ProjectAccess,
  text: string
): RawSandbox {
  const entry = text.trim()
  const paths = projectPaths(sandbox, workspace)
  if (pathProblem(entry) !== null || paths[access].includes(entry)) return sandbox
  return withProject(sandbox, workspace, { ...paths, [access]: [...paths[access], entry] })
}

/** The entry without one of `workspace`'s paths; a project with none left leaves the file. */
export function withoutProjectPath(
  sandbox: RawSandbox,
  workspace: string,
  access: ProjectAccess,
  entry: string
): RawSandbox {
  const paths = projectPaths(sandbox, workspace)
  return withProject(sandbox, workspace, {
    ...paths,
    [access]: paths[access].filter((p) => p !== entry)
  })
}

function withProject(
  sandbox: RawSandbox,
  workspace: string,
  paths: Record<ProjectAccess, string[]>
): RawSandbox {
  const projects = { ...projectsOf(sandbox) }
  const kept = isRecord(projects[workspace]) ? { ...projects[workspace] } : {}
  for (const key of ['readable', 'writable'] as const) {
    if (paths[key].length > 0) kept[key] = paths[key]
    else delete kept[key]
  }
  if (Object.keys(kept).length > 0) projects[workspace] = kept
  else delete projects[workspace]
  const next = { ...sandbox }
  if (Object.keys(projects).length > 0) next.projects = projects
  else delete next.projects
  return next
}

function projectsOf(sandbox: RawSandbox): Record<string, unknown> {
  return isRecord(sandbox.projects) ? sandbox.projects : {}
}

/** The `shell` entry of the settings file, where `env_passthrough` lives beside `enabled`. */
export type RawShell = Record<string, unknown>

export function shellOf(base: Record<string, unknown>): RawShell {
  return isRecord(base.shell) ? base.shell : {}
}

/** The variable names a person lets through (`shell.env_passthrough`). */
export function passthroughOf(shell: RawShell): string[] {
  const value = shell.env_passthrough
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** The `shell` entry with the names of a text box (a line, a space or a comma apart). */
export function withPassthrough(shell: RawShell, text: string): RawShell {
  const names = [...new Set(text.split(/[\s,]+/).filter(Boolean))]
  const next = { ...shell }
  if (names.length === 0) delete next.env_passthrough
  else next.env_passthrough = names
  return next
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
