import { readFile } from 'node:fs/promises'
import path from 'node:path'
import ignore, { type Ignore } from 'ignore'

/**
 * The project's `.gitignore` files, the root one and any nested ones, read as the walk reaches
 * them. Rules of a deeper file win over a shallower one's, as in git; `.git/` is skipped by the
 * walk itself, whatever the rules say. Nothing outside the project folder is read.
 */
/** The rules that apply in one directory, deepest first, each with where its paths start. */
type Chain = readonly { from: number; rules: Ignore }[]

export class IgnoreRules {
  /** Rules per directory relative to the root (`''` is the root); null where there are none. */
  private readonly byDir = new Map<string, Ignore | null>()
  private readonly chains = new Map<string, Chain>()

  constructor(private readonly root: string) {}

  /** Whether any `.gitignore` was found so far. */
  get any(): boolean {
    for (const rules of this.byDir.values()) if (rules) return true
    return false
  }

  /** Reads `<dir>/.gitignore` (dir relative to the root, `''` for the root) once. */
  async load(dir: string): Promise<void> {
    if (this.byDir.has(dir)) return
    this.byDir.set(dir, null)
    let text: string
    try {
      text = await readFile(path.join(this.root, dir, '.gitignore'), 'utf8')
    } catch {
      return
    }
    // git matches case-sensitively unless core.ignorecase is set; ripgrep does the same.
    this.byDir.set(dir, ignore({ ignoreCase: false }).add(text))
    this.chains.clear()
  }

  /** Reads the `.gitignore` of `dir` and of every directory above it up to the root. */
  async loadAncestors(dir: string): Promise<void> {
    const parts = dir === '' ? [] : dir.split('/')
    for (let i = 0; i <= parts.length; i++) await this.load(parts.slice(0, i).join('/'))
  }

  /**
   * Whether a path (relative to the root, with `/`) is ignored by the rules loaded for its
   * directories: the deepest file that says anything about it decides.
   */
  isIgnored(relative: string, isDirectory: boolean): boolean {
    const slash = relative.lastIndexOf('/')
    return this.isIgnoredIn(slash === -1 ? '' : relative.slice(0, slash), relative, isDirectory)
  }

  /** The same, for an entry of `dir`: the walk asks once per entry, so the chain is kept. */
  isIgnoredIn(dir: string, relative: string, isDirectory: boolean): boolean {
    for (const { from, rules } of this.chain(dir)) {
      const below = relative.slice(from)
      const verdict = rules.test(isDirectory ? `${below}/` : below)
      if (verdict.ignored) return true
      if (verdict.unignored) return false
    }
    return false
  }

  private chain(dir: string): Chain {
    const known = this.chains.get(dir)
    if (known) return known
    const slash = dir.lastIndexOf('/')
    const above = dir === '' ? [] : this.chain(slash === -1 ? '' : dir.slice(0, slash))
    const own = this.byDir.get(dir)
    const chain = own ? [{ from: dir === '' ? 0 : dir.length + 1, rules: own }, ...above] : above
    this.chains.set(dir, chain)
    return chain
  }
}
