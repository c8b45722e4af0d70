import type { TranscriptItem } from '../../shared/domain'
import { formatUsd, PRICES_TAKEN } from '../../shared/model-prices'

/** What a session's turns cost together, and how many of them had no price to count. */
export interface SessionCost {
  usd: number
  pricedTurns: number
  /** Turns of a model with no price (or recorded before turns had costs): not in `usd`. */
  unpricedTurns: number
}

/** The total of the costs recorded on a transcript's turn ends. */
export function sessionCost(transcript: readonly TranscriptItem[]): SessionCost {
  const total: SessionCost = { usd: 0, pricedTurns: 0, unpricedTurns: 0 }
  for (const item of transcript) {
    if (item.kind !== 'turn-end') continue
    if (item.cost) {
      total.usd += item.cost.usd
      total.pricedTurns += 1
    } else {
      total.unpricedTurns += 1
    }
  }
  return total
}

/** "$0.0123 over 3 turns", saying which turns are not counted and what to do about them. */
export function describeSessionCost(cost: SessionCost): string {
  const turns = (n: number): string => `${n} ${n === 1 ? 'turn' : 'turns'}`
  const missing =
    cost.unpricedTurns === 0
      ? ''
      : `; ${turns(cost.unpricedTurns)} not counted: their model has no price (set \`prices\` for it under its provider in Settings)`
  if (cost.pricedTurns === 0 && cost.unpricedTurns > 0) {
    return `unknown: the model has no price (set \`prices\` for it under its provider in Settings)`
  }
  return `${formatUsd(cost.usd)} over ${turns(cost.pricedTurns)} (built-in prices of ${PRICES_TAKEN} unless Settings set them)${missing}`
}
