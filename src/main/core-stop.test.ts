import { describe, expect, it } from 'vitest'
import { coreStopper, stopProblem } from './core-stop'

/** A stop the test finishes when it wants to, counting how often it was begun. */
function controlledStop(): {
  dispose: () => Promise<void>
  finish: () => void
  begun: () => number
} {
  let begun = 0
  let finish = (): void => undefined
  const done = new Promise<void>((resolve) => (finish = resolve))
  return {
    dispose: () => {
      begun++
      return done
    },
    finish: () => finish(),
    begun: () => begun
  }
}

describe('coreStopper', () => {
  it('stops the core once however often it is asked, and every caller hears the same end', async () => {
    const stop = controlledStop()
    const stopper = coreStopper(stop.dispose, 60_000)
    const first = stopper()
    const second = stopper()
    expect(stop.begun()).toBe(1)
    stop.finish()
    expect(await first).toEqual({ kind: 'stopped' })
    expect(await second).toEqual({ kind: 'stopped' })
    expect(await stopper()).toEqual({ kind: 'stopped' })
    expect(stop.begun()).toBe(1)
  })

  it('gives up waiting at the bound when the stop never ends', async () => {
    const stopper = coreStopper(() => new Promise<void>(() => undefined), 20)
    const outcome = await stopper()
    expect(outcome).toEqual({ kind: 'timed-out', boundMs: 20 })
    expect(stopProblem(outcome)).toBe(
      'stopping took longer than 20 ms, so Mecatl quit without waiting for it; a job or MCP server may still be running (on Linux the next start ends what jobs left behind)'
    )
  })

  it('reports a stop that failed, thrown at once or later, instead of hanging or crashing', async () => {
    const thrown = await coreStopper(() => {
      throw new Error('the database is locked')
    }, 60_000)()
    expect(stopProblem(thrown)).toBe('stopping failed: the database is locked')
    const rejected = await coreStopper(() => Promise.reject(new Error('gone')), 60_000)()
    expect(rejected.kind).toBe('failed')
    expect(stopProblem({ kind: 'stopped' })).toBeNull()
  })
})
