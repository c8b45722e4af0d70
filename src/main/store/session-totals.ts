import { addTurn, emptyTotals, type SessionTotals } from '../../shared/meters'
import type { StoreDatabase } from './database'

interface TurnRow {
  session_id: string
  input: number
  output: number
  cached: number
  /** Null when the turn had no price (or was recorded before turns had costs). */
  usd: number | null
}

// A turn end's key is `turn-end:<turnId>` (see transcriptKey): the range reads only those rows,
// through the (session_id, key) index, never the rest of a transcript. A figure that is not a
// number (a row written by hand, a future format) counts as 0 rather than failing the list.
const turnRows = (where: string): string => `
  WITH turns AS (
    SELECT e.session_id AS session_id, e.payload AS payload
    FROM sessions s JOIN session_events e ON e.session_id = s.id
    WHERE ${where} AND e.key IS NOT NULL
      AND e.key >= 'turn-end:' AND e.key < 'turn-end;'
      AND e.kind = 'transcript.item' AND json_valid(e.payload)
  ), figures AS (
    SELECT session_id,
      CASE WHEN json_type(payload, '$.item.usage.inputTokens') IN ('integer', 'real')
        THEN json_extract(payload, '$.item.usage.inputTokens') ELSE 0 END AS input,
      CASE WHEN json_type(payload, '$.item.usage.outputTokens') IN ('integer', 'real')
        THEN json_extract(payload, '$.item.usage.outputTokens') ELSE 0 END AS output,
      CASE WHEN json_type(payload, '$.item.usage.cachedTokens') IN ('integer', 'real')
        THEN json_extract(payload, '$.item.usage.cachedTokens') ELSE 0 END AS cached,
      CASE WHEN json_type(payload, '$.item.cost.usd') IN ('integer', 'real')
        THEN json_extract(payload, '$.item.cost.usd') ELSE NULL END AS usd
    FROM turns
  )
  SELECT session_id, input, output, cached, usd FROM figures
  WHERE usd IS NOT NULL OR max(input, 0) + max(output, 0) > 0`

/**
 * The totals of every recorded session of a folder, from their turn ends alone (the sums of
 * shared/meters.ts, so a stored session adds up exactly as a live one does).
 */
export function storedTotals(
  database: StoreDatabase,
  workspace: string
): Map<string, SessionTotals> {
  return sumTurns(database.prepare<[string], TurnRow>(turnRows('s.workspace = ?')).all(workspace))
}

/** One recorded session's totals, from its turn ends alone (see storedTotals). */
export function storedSessionTotals(database: StoreDatabase, sessionId: string): SessionTotals {
  const rows = database.prepare<[string], TurnRow>(turnRows('s.id = ?')).all(sessionId)
  return sumTurns(rows).get(sessionId) ?? emptyTotals()
}

function sumTurns(rows: readonly TurnRow[]): Map<string, SessionTotals> {
  const totals = new Map<string, SessionTotals>()
  for (const row of rows) {
    const before = totals.get(row.session_id) ?? emptyTotals()
    totals.set(
      row.session_id,
      addTurn(before, {
        usage: { inputTokens: row.input, outputTokens: row.output, cachedTokens: row.cached },
        cost: row.usd === null ? null : { usd: row.usd }
      })
    )
  }
  return totals
}
