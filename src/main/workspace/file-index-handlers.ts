import type { Handlers } from '../../shared/contract/handlers'
import type { FileIndexes } from './file-indexes'

/** The `@` finder's call: answered from the folder's index, the folder checked first. */
export function fileIndexHandlers(
  indexes: FileIndexes,
  checkFolder: (requested: string) => Promise<string>
): Pick<Handlers, 'files.find'> {
  return {
    'files.find': async ({ workspace, query, limit }) => {
      const folder = await checkFolder(workspace)
      return indexes.of(folder).find(query, limit ?? 50)
    }
  }
}
