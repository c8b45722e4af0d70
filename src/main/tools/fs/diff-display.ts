import type { ToolOutput } from '../tool'

/** Beyond this, a side of a change is not copied into the window's diff (the result still says what changed). */
export const DIFF_DISPLAY_MAX_BYTES = 512 * 1024

/**
 * Adds the before/after of a written file to a result, for the window's diff view. `before` is
 * null for a new file. Left out when either side is too large or the old file was not text.
 */
export function withDiff(
  output: ToolOutput,
  shown: string,
  before: Buffer | string | null,
  after: string
): ToolOutput {
  const old = typeof before === 'string' || before === null ? before : textOf(before)
  if (old === undefined) return output
  if (Buffer.byteLength(after) > DIFF_DISPLAY_MAX_BYTES) return output
  if (old !== null && Buffer.byteLength(old) > DIFF_DISPLAY_MAX_BYTES) return output
  return { ...output, display: { kind: 'diff', path: shown, before: old, after } }
}

/** The file as text, or undefined when it was binary or not UTF-8 (no diff can show it). */
function textOf(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}
