import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { sanitizedGitConfig } from './git-config'
import { seccompFilter } from './seccomp'

/**
 * Files the sandbox hands to bubblewrap from Mecatl's data directory (never visible inside it):
 * the seccomp filters, and the copies of the person's git settings a command may read. Each is
 * written once and again only when what it comes from changes, mode 0600 in a 0700 folder.
 */
export class SandboxFiles {
  private readonly dir: string
  private readonly filters = new Map<boolean, string>()
  private readonly copies = new Map<string, { stamp: string; copy: string | null }>()

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'sandbox')
  }

  /** The filter file for a policy that may (or may not) make Unix sockets. */
  filter(unixSockets: boolean): string {
    const known = this.filters.get(unixSockets)
    if (known) return known
    const bytes = seccompFilter({ unixSockets })
    const file = path.join(this.dir, `seccomp-${process.arch}-${digest(bytes)}.bpf`)
    this.write(file, bytes)
    this.filters.set(unixSockets, file)
    return file
  }

  /**
   * The copy of a git settings file without credentials (git-config.ts), or null when the file
   * cannot be read or parsed: then the command sees none rather than the original.
   */
  gitConfigCopy(source: string): string | null {
    let stamp: string
    try {
      const stat = statSync(source)
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`
    } catch {
      return null
    }
    const known = this.copies.get(source)
    if (known?.stamp === stamp) return known.copy
    let copy: string | null = null
    try {
      const text = sanitizedGitConfig(readFileSync(source, 'utf8'))
      if (text !== null) {
        copy = path.join(this.dir, `git-${digest(source)}-${digest(text)}.config`)
        this.write(copy, text)
      }
    } catch {
      copy = null
    }
    this.copies.set(source, { stamp, copy })
    return copy
  }

  private write(file: string, content: string | Buffer): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    const temp = `${file}.${process.pid}.tmp`
    writeFileSync(temp, content, { mode: 0o600 })
    renameSync(temp, file)
  }
}

function digest(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16)
}
