import type { Feature } from '../feature'
import { FileIndexes } from './file-indexes'

/** The `@` finder: one index per project folder asked about, kept fresh by a watcher. */
export const fileFinderFeature: Feature<object, { fileIndexes: FileIndexes }> = {
  name: 'file-finder',
  start() {
    const fileIndexes = new FileIndexes()
    return { provides: { fileIndexes }, stop: () => fileIndexes.close() }
  }
}
