import { z } from 'zod'
import type { TranscriptItem } from './domain'

/**
 * What a session's turns used and cost together: every turn end recorded in it, those of other
 * branches included (they were paid for too). `usd` counts the priced turns only.
 */
export const sessionTotalsSchema = z.object({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cachedTokens: z.number().nonnegative(),
  usd: z.number().nonnegative(),
  pricedTurns: z.number().int().nonnegative(),
  /** Turns whose model has no price, or recorded before turns had costs: not in `usd`. */
  unpricedTurns: z.number().int().nonnegative()
})
export type SessionTotals = z.infer<typeof sessionTotalsSchema>

/** What the chat header's meters need from main beyond the transcript. */
export const sessionMetersSchema = z.object({
  /** The model's context window in tokens (the provider's setting, its server, the table). */
  contextWindow: z.number().int().positive(),
  /** Input tokens past which the next request first compacts older messages. */
  compactAt: z.number().int().positive(),
  /** Input tokens of the latest model request; null until one answers in this run of the app. */
  contextTokens: z.number().int().nonnegative().nullable(),
  totals: sessionTotalsSchema
})
export type SessionMeters = z.infer<typeof sessionMetersSchema>

/** Totals with nothing in them. */
export function emptyTotals(): SessionTotals {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    usd: 0,
    pricedTurns: 0,
    unpricedTurns: 0
  }
}

/** A count a provider sent, or 0 when it is not a finite non-negative number. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0
}

/** The turn end's usage and cost added to `totals` (a new object; malformed figures count 0). */
export function addTurn(
  totals: SessionTotals,
  turn: { usage: { inputTokens: number; outputTokens: number; cachedTokens: number } } & {
    cost?: { usd: number } | null
  }
): SessionTotals {
  const usd = turn.cost ? count(turn.cost.usd) : null
  return {
    inputTokens: totals.inputTokens + count(turn.usage.inputTokens),
    outputTokens: totals.outputTokens + count(turn.usage.outputTokens),
    cachedTokens: totals.cachedTokens + count(turn.usage.cachedTokens),
    usd: totals.usd + (usd ?? 0),
    pricedTurns: totals.pricedTurns + (usd === null ? 0 : 1),
    unpricedTurns: totals.unpricedTurns + (usd === null ? 1 : 0)
  }
}

/**
 * The totals of a transcript's turn ends. A turn end with no tokens and no cost (a fork marker,
 * a turn stopped before any answer) was no model request: it is neither priced nor unpriced.
 */
export function totalsOf(items: readonly TranscriptItem[]): SessionTotals {
  let totals = emptyTotals()
  for (const item of items) {
    if (item.kind !== 'turn-end' || !spent(item)) continue
    totals = addTurn(totals, item)
  }
  return totals
}

/** Whether a turn end records a model request: some tokens, or a cost. */
export function spent(item: Extract<TranscriptItem, { kind: 'turn-end' }>): boolean {
  const { usage } = item
  return Boolean(item.cost) || count(usage.inputTokens) + count(usage.outputTokens) > 0
}

/** The share (0 to 1) of input tokens read from the provider's cache; null with no input. */
export function cacheShare(usage: { inputTokens: number; cachedTokens: number }): number | null {
  const input = count(usage.inputTokens)
  if (input === 0) return null
  return Math.min(1, count(usage.cachedTokens) / input)
}
