import { mkdir, open, realpath } from 'node:fs/promises'
import path from 'node:path'

/** What `read` found: the start of a saved output (or all of it), or why it cannot be shown. */
export type SpillRead =
  | { ok: true; path: string; text: string; totalBytes: number; shownBytes: number }
  | { ok: false; message: string }

/** How much of a saved output the window is sent at once; the file itself stays whole. */
export const SPILL_VIEW_MAX_BYTES = 2 * 1024 * 1024

/**
 * One session's spill directory (`<dataDir>/spill/<sessionId>`): tool outputs too large for the
 * turn's budget are saved here whole, so the model can Read or Grep the rest. It is the one place
 * outside the project folder that the session's Read may follow, and no other session's.
 */
export class SpillStore {
  constructor(readonly dir: string) {}

  /** Saves `text` as `<callId>.txt` (never replacing a file) and returns its absolute path. */
  async save(callId: string, text: string): Promise<string> {
    await mkdir(this.dir, { recursive: true })
    const stem = callId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100) || 'output'
    // Providers reuse call ids across turns (some number them per reply), so a taken name gets
    // a suffix instead of losing the earlier output.
    for (let n = 1; ; n++) {
      const file = path.join(this.dir, n === 1 ? `${stem}.txt` : `${stem}-${n}.txt`)
      let handle
      try {
        handle = await open(file, 'wx', 0o600)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue
        throw error
      }
      try {
        await handle.writeFile(text)
      } finally {
        await handle.close()
      }
      return file
    }
  }

  /**
   * Whether `absolute` (already canonical) is inside this session's directory. The directory is
   * canonicalised on each check: it may not exist yet, or live behind a link (macOS `/var`).
   */
  async contains(absolute: string): Promise<boolean> {
    const root = await canonicalDir(this.dir)
    return absolute.startsWith(root + path.sep)
  }

  /** The start of a saved output, for the window; anything outside this session's directory is refused. */
  async read(requested: string, maxBytes = SPILL_VIEW_MAX_BYTES): Promise<SpillRead> {
    const refused: SpillRead = {
      ok: false,
      message: `\`${requested}\` is not a saved output of this session; only files in its spill directory (${this.dir}) can be opened here`
    }
    if (requested.includes('\0') || !path.isAbsolute(requested)) return refused
    let real: string
    try {
      real = await realpath(requested)
    } catch {
      // Said the same way as a refusal, so the answer does not reveal what exists elsewhere.
      const inside = await this.contains(path.resolve(requested))
      return inside
        ? { ok: false, message: `the saved output \`${requested}\` no longer exists` }
        : refused
    }
    if (!(await this.contains(real))) return refused
    const handle = await open(real, 'r')
    try {
      const stats = await handle.stat()
      if (!stats.isFile()) return refused
      const length = Math.min(stats.size, maxBytes)
      const buffer = Buffer.alloc(length)
      const { bytesRead } = await handle.read(buffer, 0, length, 0)
      const shown = utf8Prefix(buffer.subarray(0, bytesRead))
      return {
        ok: true,
        path: real,
        text: shown.toString('utf8'),
        totalBytes: stats.size,
        shownBytes: shown.length
      }
    } finally {
      await handle.close()
    }
  }
}

async function canonicalDir(dir: string): Promise<string> {
  try {
    return await realpath(dir)
  } catch {
    // Not created yet: nothing can be inside it, but its parent may still sit behind a link.
    const parent = await realpath(path.dirname(dir)).catch(() => path.dirname(dir))
    return path.join(parent, path.basename(dir))
  }
}

/** The longest prefix of `bytes` that does not end inside a UTF-8 sequence. */
export function utf8Prefix(bytes: Buffer): Buffer {
  let end = bytes.length
  // Step back over continuation bytes to the lead byte of the last character.
  let lead = end - 1
  while (lead >= 0 && lead > end - 4 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--
  if (lead < 0) return bytes.subarray(0, 0)
  const first = bytes[lead] ?? 0
  const needed = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1
  if (end - lead < needed) end = lead
  return bytes.subarray(0, end)
}
