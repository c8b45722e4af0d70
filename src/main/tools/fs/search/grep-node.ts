import type { FileMatches } from './file-searcher'
import type { SearchRequest, SearchResult } from './engine'
import { countMatches } from './engine'
import { walkFiles } from './walk'
import { searchPool } from './worker-pool'

/** Files per batch posted to a worker: enough to amortise the message, small to spread well. */
const BATCH_FILES = 64

/**
 * The search in Node, for when ripgrep is not installed: the main thread walks the tree (with
 * the same ignore rules) while worker threads read and search batches of files.
 */
export async function searchWithNode(request: SearchRequest): Promise<SearchResult> {
  const pool = searchPool()
  const owner = {}
  const found: FileMatches[] = []
  const pending: Promise<void>[] = []
  let matchingLines = 0
  let filesListed = 0
  let filesScanned = 0
  let bytesScanned = 0
  let stopped: SearchResult['stopped'] = null
  let batch: string[] = []

  const stop = (why: NonNullable<SearchResult['stopped']>): void => {
    if (stopped) return
    stopped = why
    pool.cancel(owner)
  }
  const submit = (): void => {
    if (batch.length === 0) return
    const files = batch
    batch = []
    pending.push(
      pool.search(owner, request.root, files, request.spec).then((result) => {
        found.push(...result.files)
        filesScanned += result.filesScanned
        bytesScanned += result.bytesScanned
        matchingLines += countMatches(result.files)
        if (matchingLines >= request.matchCeiling) stop('matches')
        else if (request.budget && bytesScanned > request.budget.bytes) stop('bytes')
      })
    )
  }
  const onAbort = (): void => pool.cancel(owner)
  request.signal.addEventListener('abort', onAbort)
  try {
    if (request.scope.kind === 'file') {
      batch.push(request.scope.path)
    } else {
      await walkFiles(
        {
          root: request.root,
          start: request.scope.path,
          rules: request.rules,
          signal: request.signal
        },
        (relative) => {
          if (stopped || request.signal.aborted) return false
          if (!request.accepts(relative)) return true
          if (request.budget && filesListed >= request.budget.files) {
            stop('files')
            return false
          }
          filesListed++
          batch.push(relative)
          if (batch.length >= BATCH_FILES) submit()
          return true
        }
      )
    }
    submit()
    await Promise.all(pending)
  } finally {
    request.signal.removeEventListener('abort', onAbort)
  }
  return { files: found, matchingLines, filesScanned, bytesScanned, stopped, engine: 'node' }
}
