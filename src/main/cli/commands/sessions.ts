import { realpathSync } from 'node:fs'
import { exportSession, type ExportFormat } from '../../agent/session-export'
import { rehydrate } from '../../agent/session-rehydrate'
import { sessionCost } from '../../agent/session-cost'
import { openStore } from '../../store/store'
import type { StoredSession } from '../../store/session-store'
import { UsageError, type CliArgs } from '../args'
import { requireValidSettings, requireWorkspace } from '../context'
import { printError, printJson, printLine, writeOut } from '../print'

const VERBS =
  'sessions list [--workspace DIR] | sessions show ID | sessions export ID [--format jsonl|md]'

/**
 * `sessions list|show|export`: the recorded sessions of a folder (--workspace, default the
 * current folder), read from the database the window and `run` write (MECATL_HOME).
 */
export async function sessionsCommand(args: CliArgs): Promise<number> {
  const [verb, id, ...extra] = args.positionals
  if (extra.length > 0 || !verb) throw new UsageError(`sessions takes one verb: ${VERBS}`)
  const format = exportFormat(args.format)
  const store = openStore(await requireValidSettings(args))
  try {
    if (verb === 'list') {
      if (id) throw new UsageError(`sessions list takes no id: ${VERBS}`)
      const folder = realpathSync(args.workspace ? requireWorkspace(args) : process.cwd())
      const sessions = store.sessions.list(folder)
      if (args.json) printJson(sessions, 2)
      else if (sessions.length === 0) printLine(`No recorded sessions in ${folder}.`)
      else for (const session of sessions) printLine(listLine(session))
      return 0
    }
    if (verb !== 'show' && verb !== 'export') {
      throw new UsageError(`unknown verb "${verb}": ${VERBS}`)
    }
    if (!id) throw new UsageError(`sessions ${verb} needs a session id (see sessions list)`)
    const session = store.sessions.get(id) ?? findByPrefix(store.sessions.listAll(), id)
    if (!session) {
      printError(`mecatl: there is no recorded session ${id}; sessions list shows the ids`)
      return 1
    }
    const events = store.sessions.events(session.id)
    if (verb === 'show') {
      if (args.json) {
        const { transcript, items, todos } = rehydrate(events)
        // The conversation shown; the cost of every branch, since every one was paid for.
        const cost = sessionCost(items)
        printJson({ session, cost, transcript, todos }, 2)
      } else {
        writeOut(exportSession(session, events, 'md'))
      }
      return 0
    }
    writeOut(exportSession(session, events, format))
    return 0
  } finally {
    store.close()
  }
}

function exportFormat(format: string | undefined): ExportFormat {
  if (format === undefined || format === 'jsonl') return 'jsonl'
  if (format === 'md' || format === 'markdown') return 'md'
  throw new UsageError(`--format must be jsonl or md (got "${format}")`)
}

/** An id's first characters are enough, as with git, when only one session starts with them. */
function findByPrefix(sessions: StoredSession[], prefix: string): StoredSession | null {
  const matches = sessions.filter((s) => s.id.startsWith(prefix))
  return matches.length === 1 ? (matches[0] ?? null) : null
}

function listLine(session: StoredSession): string {
  const when = new Date(session.updatedAt).toISOString().replace('T', ' ').slice(0, 16)
  const size = `${Math.max(1, Math.round(session.sizeBytes / 1024))} KB`
  return `${session.id.slice(0, 8)}  ${when}  ${String(session.messageCount).padStart(3)} msgs  ${size.padStart(7)}  ${session.title}`
}
