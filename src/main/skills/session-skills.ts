/**
 * The skills loaded into one session, in load order. Kept on the session so that a compaction
 * can carry them into the shortened conversation.
 */
export class SessionSkills {
  private readonly loaded: string[] = []

  constructor(private readonly allowRead: (dir: string) => void) {}

  /** Records a load and opens the skill's folder for reading; true the first time. */
  load(name: string, dir: string): boolean {
    this.allowRead(dir)
    if (this.loaded.includes(name)) return false
    this.loaded.push(name)
    return true
  }

  names(): string[] {
    return [...this.loaded]
  }
}
