import path from 'node:path'
import type { Feature } from '../feature'
import { RecentFolders } from './recent-folders'
import { releaseTempJournal, sweepTempJournal, useTempJournal } from './temp-journal'
import { WorkspaceTrust } from './workspace-trust'

export interface WorkspaceProvides {
  /** Whether the person trusts each folder's authors (`--trust-project`: all, for this run). */
  trust: WorkspaceTrust
  recent: RecentFolders
}

/** The project folders: which were opened, which are trusted, and the atomic writes' journal. */
export const workspaceFeature: Feature<
  { options: { dataDir: string; trustProject?: boolean } },
  WorkspaceProvides
> = {
  name: 'workspace',
  start({ options }) {
    // Temp files of atomic writes a killed run left in flight: only those its journal names go.
    const journal = path.join(options.dataDir, 'pending-writes')
    const swept = sweepTempJournal(journal).catch(() => [])
    useTempJournal(journal)
    return {
      provides: {
        trust: new WorkspaceTrust(options.dataDir, { trustAll: options.trustProject }),
        recent: new RecentFolders(path.join(options.dataDir, 'recent-folders.json'))
      },
      stop: async () => {
        await swept
        releaseTempJournal(journal)
      }
    }
  }
}
