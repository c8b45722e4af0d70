// The fake Anthropic server's prompt cache, modelled on the real one: a request's prefix (tools,
// then system, then messages, block by block) is written to the cache at each block marked with
// `cache_control`, and a later request reads back the longest prefix it sends byte for byte that
// an earlier request wrote, up to its own last mark, while the entry lives (five minutes from its
// last use, or an hour with `ttl: '1h'`). Not modelled: the API's minimum cacheable length and
// its 20-block look-back, so the figures are an upper bound the real API approaches.
import { createHash, type Hash } from 'node:crypto'
import { asArray, isRecord, roughTokens } from './fake-model-types'

/** The three input counts of an Anthropic reply's `usage`. */
export interface CacheUsage {
  /** Tokens after the last mark: billed as fresh input. */
  input: number
  /** Tokens of the longest prefix found in the cache. */
  cacheRead: number
  /** Tokens from there up to the last mark: written to the cache this time. */
  cacheCreation: number
}

export interface PromptCacheModel {
  /** The usage of one request body, whose marks are then written to the cache. */
  account(body: unknown): CacheUsage
}

const fiveMinutes = 5 * 60_000
const oneHour = 60 * 60_000

interface Block {
  text: string
  /** The mark's lifetime in ms, when the block carries `cache_control`. */
  ttl: number | null
}

/** A prompt cache over `clock` (milliseconds), so tests move time rather than wait for it. */
export function createPromptCacheModel(clock: () => number = Date.now): PromptCacheModel {
  const expiries = new Map<string, number>()
  return {
    account(body) {
      const now = clock()
      const blocks = blocksOf(body)
      const hash: Hash = createHash('sha256').update(modelOf(body))
      let tokens = 0
      const prefixes: { digest: string; tokens: number; ttl: number | null }[] = []
      for (const block of blocks) {
        hash.update(`\u0000${block.text}`)
        tokens += roughTokens(block.text)
        prefixes.push({ digest: hash.copy().digest('hex'), tokens, ttl: block.ttl })
      }
      let lastMark = -1
      prefixes.forEach((p, i) => {
        if (p.ttl !== null) lastMark = i
      })
      let read = 0
      for (let i = lastMark; i >= 0; i--) {
        const prefix = prefixes[i]
        const expiry = prefix ? expiries.get(prefix.digest) : undefined
        if (prefix && expiry !== undefined && expiry > now) {
          read = prefix.tokens
          // A hit refreshes the entry's lifetime, as the API's does.
          expiries.set(prefix.digest, Math.max(expiry, now + fiveMinutes))
          break
        }
      }
      for (const prefix of prefixes) {
        if (prefix.ttl === null) continue
        const kept = expiries.get(prefix.digest) ?? 0
        expiries.set(prefix.digest, Math.max(kept, now + prefix.ttl))
      }
      const marked = lastMark >= 0 ? (prefixes[lastMark]?.tokens ?? 0) : 0
      return { input: tokens - marked, cacheRead: read, cacheCreation: marked - read }
    }
  }
}

function modelOf(body: unknown): string {
  return isRecord(body) && typeof body['model'] === 'string' ? body['model'] : ''
}

/** The prompt's blocks in cache order, each serialised without its mark. */
function blocksOf(body: unknown): Block[] {
  if (!isRecord(body)) return []
  const out: Block[] = []
  const add = (where: string, raw: unknown): void => {
    if (!isRecord(raw)) return
    const { cache_control: control, ...rest } = raw
    out.push({ text: JSON.stringify([where, rest]), ttl: ttlOf(control) })
  }
  for (const tool of asArray(body['tools'])) add('tool', tool)
  const system = body['system']
  if (typeof system === 'string') add('system', { type: 'text', text: system })
  else for (const block of asArray(system)) add('system', block)
  for (const message of asArray(body['messages'])) {
    if (!isRecord(message)) continue
    const role = typeof message['role'] === 'string' ? message['role'] : ''
    const content = message['content']
    if (typeof content === 'string') add(role, { type: 'text', text: content })
    else for (const block of asArray(content)) add(role, block)
  }
  return out
}

function ttlOf(control: unknown): number | null {
  if (!isRecord(control) || control['type'] !== 'ephemeral') return null
  return control['ttl'] === '1h' ? oneHour : fiveMinutes
}
