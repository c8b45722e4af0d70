// A long turn leaves nothing behind on its signal: every model request and tool call of a step
// that listens for the turn's abort stops listening when it is done, so a turn that runs to its
// step limit prints no MaxListenersExceededWarning (or any other Node warning).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Step } from '../../../testing/fake-model-server'
import { startCoreHarness } from '../../../testing/core-harness'

let warnings: Error[] = []
const onWarning = (warning: Error): void => {
  warnings.push(warning)
}

beforeEach(() => {
  warnings = []
  process.on('warning', onWarning)
})
afterEach(() => {
  process.off('warning', onWarning)
})

/** More steps than a turn may take, each a tool call, so the turn ends at max_steps. */
const steps: Step[] = Array.from({ length: 60 }, (_, i) => ({
  text: `Step ${i}.`,
  toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }]
}))

describe.each(['openai', 'anthropic'] as const)(
  'a turn over %s that runs to its step limit',
  (format) => {
    it('emits no Node warning', async () => {
      const h = await startCoreHarness({
        name: 'warnings',
        format,
        script: steps,
        files: { 'a.txt': 'alpha\n' }
      })
      const session = await h.client.call('session.create', { workspace: h.workspace })
      await h.client.call('session.send', { sessionId: session.id, text: 'keep reading' })
      await h.core.sessions.idle(session.id)
      const completed = h.events.find((e) => e.event === 'turn.completed')
      expect(completed?.payload).toMatchObject({ stopReason: 'max_steps' })
      expect(h.fake.chatRequests().length).toBeGreaterThan(10)
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([])
    })
  }
)
