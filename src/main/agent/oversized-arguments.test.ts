// A tool call whose arguments are over 10 MiB is refused before anything parses them, with a
// result the model can act on, and the arguments are kept once (in the session's spill
// directory), never in every update of the card, the record, or every later request.
import { existsSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { latestToolResults } from '../../../testing/fake-model-server'
import type { TranscriptItem } from '../../shared/domain'
import { startCoreHarness } from '../../../testing/core-harness'

/** Just over the limit: the openai SDK takes seconds to split an argument this long into lines. */
const HUGE = 'x'.repeat(11_000_000)
const KIB = 1024

describe.each(['openai', 'anthropic'] as const)(
  'a %s call with 10.5 MiB of arguments',
  (format) => {
    it('is refused unread, told to the model, and stored once', async () => {
      const h = await startCoreHarness({
        name: 'huge-args',
        format,
        script: [
          { toolCalls: [{ name: 'Write', input: { path: 'huge.txt', content: HUGE } }] },
          { text: 'I will write it in parts.' },
          { text: 'Still fine.' }
        ]
      })
      const session = await h.client.call('session.create', { workspace: h.workspace })
      await h.client.call('session.send', { sessionId: session.id, text: 'write a huge file' })
      await h.core.sessions.idle(session.id)
      await h.client.call('session.send', { sessionId: session.id, text: 'and?' })
      await h.core.sessions.idle(session.id)

      const [, second, third] = h.fake.chatRequests()
      expect(latestToolResults(second!)[0]?.content).toBe(
        'The arguments of this Write call are 10.5 MiB; the limit is 10 MiB: write the file in parts (Write a first part, then extend it with Edit). Nothing was run.'
      )
      expect(existsSync(path.join(h.workspace, 'huge.txt'))).toBe(false)

      // Every later request carries a short stand-in, not the arguments.
      const chats = h.fake.requests.filter((r) => r.normalized)
      for (const later of chats.slice(1)) {
        expect(JSON.stringify(later.body).length).toBeLessThan(64 * KIB)
      }
      expect(third?.messages.some((m) => m.toolCalls?.some((c) => c.name === 'Write'))).toBe(true)

      // Each update of the card, and the record, carry the stand-in too.
      const cards = h.events.flatMap((e) => {
        const item = (e.payload as { item?: TranscriptItem }).item
        return e.event === 'transcript.item' && item?.kind === 'tool' ? [item.call] : []
      })
      expect(cards.length).toBeGreaterThan(0)
      for (const card of cards) expect(JSON.stringify(card).length).toBeLessThan(4 * KIB)
      expect(cards.at(-1)).toMatchObject({ name: 'Write', state: 'denied', refusedBy: 'limit' })
      expect(h.core.store.sessions.get(session.id)?.sizeBytes).toBeLessThan(64 * KIB)

      // Kept once, whole, where the card says.
      const spill = path.join(h.home, 'spill', session.id)
      const files = await readdir(spill)
      expect(files).toHaveLength(1)
      const saved = path.join(spill, files[0]!)
      expect((await stat(saved)).size).toBe(
        Buffer.byteLength(JSON.stringify({ path: 'huge.txt', content: HUGE }))
      )
      expect(JSON.stringify(cards.at(-1)?.input)).toContain(saved)
    }, 60_000)
  }
)
