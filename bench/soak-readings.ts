// The soak's readings over its day, and what it prints of them: each reading as it is taken, then
// how much each figure grew over the second half of the day, against the goal.
import { reportAmount } from './measure'
import type { RendererMemory } from './renderer-heap'

/** The goal: after the warm-up, no figure grows by more than this over the day's second half. */
export const GROWTH_TARGET = 1.1

/** One reading, taken with the same small session open each time. */
export interface Reading {
  turns: number
  seconds: number
  renderer: RendererMemory
  serverHeapMb: number
  serverRssMb: number
}

export function printReading(r: Reading): void {
  const mb = (value: number): string => `${value.toFixed(1).padStart(6)} MB`
  console.log(
    `soak: ${String(r.turns).padStart(6)} turns ${r.seconds.toFixed(0).padStart(5)} s   ` +
      `renderer heap ${mb(r.renderer.heapMb)}, ${String(r.renderer.nodes).padStart(6)} nodes, ` +
      `${String(r.renderer.listeners).padStart(5)} listeners   ` +
      `server heap ${mb(r.serverHeapMb)}, RSS ${mb(r.serverRssMb)}`
  )
}

/** The median of the three readings around `at`: one reading taken mid-collection is no trend. */
function around(readings: readonly Reading[], at: number, read: (r: Reading) => number): number {
  const picked = readings.slice(Math.max(0, at - 1), at + 2).map(read)
  picked.sort((a, b) => a - b)
  return picked[Math.floor(picked.length / 2)] ?? Number.NaN
}

/**
 * Each figure at the end of the day against the same figure half-way through it (both the
 * median of three readings), with whether it stayed within the goal.
 */
export function reportGrowth(readings: readonly Reading[]): void {
  const mid = Math.floor((readings.length - 1) / 2)
  const end = readings.length - 2
  const turnsAt = (at: number): number => readings[at]?.turns ?? 0
  const figures: [string, (r: Reading) => number][] = [
    ['renderer heap', (r) => r.renderer.heapMb],
    ['server heap', (r) => r.serverHeapMb],
    ['server RSS', (r) => r.serverRssMb]
  ]
  for (const [name, read] of figures) {
    const atEnd = around(readings, end, read)
    const atMid = around(readings, mid, read)
    reportAmount(
      `soak: ${name}, ~${turnsAt(end)} turns`,
      atEnd,
      'MB',
      `the same, ~${turnsAt(mid)} turns`,
      atMid
    )
    const met = atEnd <= atMid * GROWTH_TARGET
    console.log(
      `  target: at most ${Math.round((GROWTH_TARGET - 1) * 100)}% growth over the second half: ${met ? 'met' : 'MISSED'}`
    )
  }
}
