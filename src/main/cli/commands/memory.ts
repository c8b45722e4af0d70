import { realpathSync } from 'node:fs'
import { boldHits, unmark } from '../../store/memory-query'
import { projectOwner, userOwner } from '../../store/memory-store'
import { openStore } from '../../store/store'
import { when } from '../../tools/memory/memory-text'
import { UsageError, type CliArgs } from '../args'
import { requireValidSettings, requireWorkspace } from '../context'
import { printJson, printLine } from '../print'

const LIMIT = 20

/**
 * `memory search 'QUERY' [--user]`: the memories the model would find, best first, from the
 * same database the window and `call` use (MECATL_HOME). Project memory is the --workspace
 * folder's (default: the current folder).
 */
export async function memoryCommand(args: CliArgs): Promise<number> {
  const [verb, query, ...extra] = args.positionals
  if (verb !== 'search' || !query?.trim() || extra.length > 0) {
    throw new UsageError("memory takes one verb: memory search 'QUERY' [--user] [--workspace DIR]")
  }
  const folder = realpathSync(args.workspace ? requireWorkspace(args) : process.cwd())
  const owner = args.user ? userOwner : projectOwner(folder)
  const store = openStore(await requireValidSettings(args))
  try {
    const { hits } = store.memory.search(owner, query, { limit: LIMIT })
    if (args.json) {
      const printed = hits.map(({ entry, score, snippet }) => ({
        ...entry,
        score,
        snippet: unmark(snippet)
      }))
      printJson(printed, 2)
      return 0
    }
    const where = args.user ? 'the user model' : `the project memory of ${folder}`
    if (hits.length === 0) {
      printLine(`Nothing in ${where} matches "${query}".`)
      return 0
    }
    for (const { entry, snippet } of hits) {
      printLine(`${entry.name}  (version ${entry.version}, updated ${when(entry.updatedAt)})`)
      printLine(`  ${boldHits(snippet)}`)
    }
    return 0
  } finally {
    store.close()
  }
}
