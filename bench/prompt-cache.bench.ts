import { mkdtemp, rm } from 'node:fs/promises'
import path from 'node:path'
import type { PromptCache } from '../src/main/providers/anthropic-cache'
import { runCacheSession, type CacheSessionRun } from '../testing/cache-session'
import type { RecordedRequest } from '../testing/fake-model-server'
import { reportAmount } from './measure'

/**
 * Claude Sonnet 4.5's list prices in dollars per million tokens, as Anthropic publishes them (the
 * figures of the app's price table, asOf 2025-11-24): fresh input, cache write for five minutes
 * and for one hour, cache read, output. Kept here rather than read from that table so this
 * figure stays comparable from run to run whatever the table says.
 */
const price = { input: 3, write5m: 3.75, write1h: 6, read: 0.3, output: 15 }

interface Totals {
  fresh: number
  read: number
  written: number
  output: number
}

function totals(requests: readonly RecordedRequest[]): Totals {
  const sum: Totals = { fresh: 0, read: 0, written: 0, output: 0 }
  for (const { usage } of requests) {
    if (!usage) continue
    sum.fresh += usage.input
    sum.read += usage.cached
    sum.written += usage.cacheCreation ?? 0
    sum.output += usage.output
  }
  return sum
}

function dollars(t: Totals, cache: PromptCache): number {
  const write = cache === '1h' ? price.write1h : price.write5m
  return (
    (t.fresh * price.input + t.written * write + t.read * price.read + t.output * price.output) /
    1e6
  )
}

/** Every request of turns 2–30, the compaction's summarising request included. */
function laterRequests(run: CacheSessionRun): RecordedRequest[] {
  return [...run.turns.filter((t) => t.turn >= 2).map((t) => t.request), ...run.summaries]
}

async function session(dir: string, cache: PromptCache): Promise<CacheSessionRun> {
  const own = await mkdtemp(path.join(dir, `cache-${cache}-`))
  try {
    return await runCacheSession(own, cache)
  } finally {
    await rm(own, { recursive: true, force: true })
  }
}

/**
 * The scripted 30-turn session (tool calls, a plan, a skill, a compaction) against the fake
 * Anthropic server's cache model, with breakpoints and without, in the same run: the share of
 * input tokens of turns 2–30 read from the cache (target: at least 90%), and the cost of each.
 */
export async function benchPromptCache(dir: string): Promise<void> {
  const cached = await session(dir, '5m')
  const hour = await session(dir, '1h')
  const plain = await session(dir, 'off')
  const input = (t: Totals): number => t.fresh + t.read + t.written
  const share = (t: Totals): number => (input(t) > 0 ? (100 * t.read) / input(t) : 0)
  const all = (run: CacheSessionRun): Totals =>
    totals([...run.turns.map((t) => t.request), ...run.summaries])
  const conversation = cached.turns.filter((t) => t.turn >= 2).map((t) => t.request)
  const name = 'Prompt cache: turns 2-30 input read from cache'
  reportAmount(name, share(totals(laterRequests(cached))), '%', 'target', 90)
  reportAmount(
    '  (without the compaction summary request)',
    share(totals(conversation)),
    '%',
    'target',
    90
  )
  const baseline = 100 * dollars(all(plain), 'off')
  const without = 'the same without breakpoints'
  reportAmount(
    'Prompt cache: 30-turn session cost, 5 min',
    100 * dollars(all(cached), '5m'),
    'ct',
    without,
    baseline
  )
  reportAmount(
    'Prompt cache: 30-turn session cost, 1 hour',
    100 * dollars(all(hour), '1h'),
    'ct',
    without,
    baseline
  )
  const requests = cached.turns.length + cached.summaries.length
  console.log(
    `  (${requests} requests, ${input(all(plain))} input tokens in all; Sonnet 4.5 list prices)`
  )
}
