export interface LoadedSkill {
  name: string
  /** The folder opened for reading; null for a learned skill, which opens none. */
  dir: string | null
  /** The SKILL.md instructions as loaded (without front matter). */
  body: string
}

/**
 * The skills loaded into one session, in load order. Kept on the session so that a compaction
 * can carry them into the shortened conversation.
 */
export class SessionSkills {
  private readonly loaded: LoadedSkill[] = []

  constructor(private readonly allowRead: (dir: string) => void) {}

  /**
   * Records a load and opens the skill's folder for reading (none for `dir` null); true the first
   * time. The body is kept so a compaction carries the instructions as they were loaded.
   */
  load(name: string, dir: string | null, body = ''): boolean {
    if (dir !== null) this.allowRead(dir)
    const known = this.loaded.find((skill) => skill.name === name)
    if (known) {
      known.body = body || known.body
      return false
    }
    this.loaded.push({ name, dir, body })
    return true
  }

  names(): string[] {
    return this.loaded.map((skill) => skill.name)
  }

  list(): LoadedSkill[] {
    return this.loaded.map((skill) => ({ ...skill }))
  }
}
