const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** 1234 → "1,234". */
export function formatCount(value: number): string {
  return integer.format(value)
}

/** A size for people: "512 bytes", "12.3 KB", "4.0 MB" (powers of 1024, as file managers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatCount(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** "1,234 in · 56 out · 0 cached" */
export function formatUsage(usage: {
  inputTokens: number
  outputTokens: number
  cachedTokens: number
}): string {
  return `${formatCount(usage.inputTokens)} in · ${formatCount(usage.outputTokens)} out · ${formatCount(usage.cachedTokens)} cached`
}

/** A tool call's duration: "120 ms", "4.2 s", "1 m 05 s". */
export function formatDuration(ms: number): string {
  if (ms < 0) return '0 ms'
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`
  const minutes = Math.floor(ms / 60_000)
  const seconds = Math.round((ms % 60_000) / 1000)
  return `${minutes} m ${String(seconds).padStart(2, '0')} s`
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then a short date. */
export function formatRelative(at: number, now: number): string {
  const diff = now - at
  if (diff < MINUTE) return 'just now'
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)} min ago`
  if (diff < DAY) return `${Math.floor(diff / HOUR)} h ago`
  if (diff < 2 * DAY) return 'yesterday'
  if (diff < 7 * DAY) return `${Math.floor(diff / DAY)} days ago`
  const date = new Date(at)
  const sameYear = date.getFullYear() === new Date(now).getFullYear()
  return date.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' })
  })
}

/** The last segment of a path, for titles: "/home/ana/proj/" → "proj". */
export function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '')
  const parts = trimmed.split(/[\\/]/)
  return parts[parts.length - 1] || trimmed || path
}

/** JSON for people: two-space indent, strings as-is at the top level. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return ''
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * A path for a container that truncates at the start (CSS `direction: rtl`): the marks keep the
 * slashes where they belong instead of letting the bidi algorithm move them to the other end.
 */
export function ltrPath(path: string): string {
  return `\u200e${path}\u200e`
}
