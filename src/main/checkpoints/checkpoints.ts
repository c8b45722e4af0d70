import path from 'node:path'
import { ShadowStore } from './shadow-store'

/** The shadow stores of every project folder, in `<dataDir>/checkpoints`. */
export class Checkpoints {
  private readonly stores = new Map<string, ShadowStore>()

  constructor(
    private readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env
  ) {}

  /** The store of one project folder (made on first use). */
  store(workspace: string): ShadowStore {
    let store = this.stores.get(workspace)
    if (!store) {
      store = new ShadowStore({
        root: path.join(this.dataDir, 'checkpoints'),
        workspace,
        env: this.env
      })
      this.stores.set(workspace, store)
    }
    return store
  }

  /**
   * Takes a checkpoint and never throws: a checkpoint that cannot be taken (a full disk, no git)
   * must not fail the turn. Returns why it failed, or null.
   */
  async tryTake(workspace: string, reason: string, sessionId: string): Promise<string | null> {
    try {
      await this.store(workspace).take(reason, sessionId)
      return null
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
  }
}
