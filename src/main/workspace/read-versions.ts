import { createHash } from 'node:crypto'

/** What a session saw of a file when it last read or wrote it. */
interface SeenVersion {
  hash: string
}

export type FreshnessCheck = { ok: true } | { ok: false; reason: 'not-read' | 'changed' }

/**
 * The session's ledger of file versions: a file that exists may only be replaced or edited if
 * this session read it and it has not changed since, so the model never clobbers work it has
 * not seen.
 */
export class ReadVersions {
  private readonly seen = new Map<string, SeenVersion>()

  record(absolutePath: string, content: Buffer | string): void {
    this.seen.set(absolutePath, { hash: hashOf(content) })
  }

  check(absolutePath: string, currentContent: Buffer | string): FreshnessCheck {
    const seen = this.seen.get(absolutePath)
    if (!seen) return { ok: false, reason: 'not-read' }
    if (seen.hash !== hashOf(currentContent)) return { ok: false, reason: 'changed' }
    return { ok: true }
  }
}

function hashOf(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex')
}
