/** The `sandbox` entry of the settings file as Settings → Permissions edits it. */
export type RawSandbox = Record<string, unknown>

export function sandboxOf(base: Record<string, unknown>): RawSandbox {
  const entry = base.sandbox
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry)
    ? (entry as RawSandbox)
    : {}
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
