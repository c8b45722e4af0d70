import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { RemoteLiveness } from './remote-liveness'

afterEach(() => {
  vi.useRealTimers()
})

/** A ping that answers as told, counting how often it was asked. */
function pinger(answers: boolean[]) {
  const asked: number[] = []
  const ping = (timeout: number): Promise<void> => {
    asked.push(timeout)
    return answers.shift() === false ? Promise.reject(new Error('fetch failed')) : Promise.resolve()
  }
  return { ping, asked }
}

describe('watching a remote server while calls run', () => {
  it('pings on the interval only while a call runs, and declares it dead once', async () => {
    vi.useFakeTimers()
    const { ping, asked } = pinger([true, false, false])
    const dead: string[] = []
    const liveness = new RemoteLiveness(ping, (why) => dead.push(why), 1000)
    await vi.advanceTimersByTimeAsync(5000)
    expect(asked).toHaveLength(0)
    const end = liveness.begin()
    await vi.advanceTimersByTimeAsync(1000)
    expect(asked).toHaveLength(1)
    expect(dead).toEqual([])
    await vi.advanceTimersByTimeAsync(1000)
    expect(dead).toEqual(['fetch failed'])
    // Dead is dead: no more pings, however long the call still waits.
    await vi.advanceTimersByTimeAsync(5000)
    expect(asked).toHaveLength(2)
    end()
  })

  it('asks at once on a transport error during a call, and not at all between calls', async () => {
    vi.useFakeTimers()
    const { ping, asked } = pinger([false])
    const dead: string[] = []
    const liveness = new RemoteLiveness(ping, (why) => dead.push(why), 60_000)
    liveness.poke()
    expect(asked).toHaveLength(0)
    const end = liveness.begin()
    liveness.poke()
    await vi.advanceTimersByTimeAsync(0)
    expect(dead).toEqual(['fetch failed'])
    end()
  })

  it('stops pinging when the last call ends, and a failed ping after that is not a death', async () => {
    vi.useFakeTimers()
    let fail: (error: Error) => void = () => undefined
    const ping = (): Promise<void> => new Promise((_, reject) => (fail = reject))
    const dead: string[] = []
    const liveness = new RemoteLiveness(ping, (why) => dead.push(why), 1000)
    const first = liveness.begin()
    const second = liveness.begin()
    first()
    first()
    await vi.advanceTimersByTimeAsync(1000)
    second()
    // The ping sent while a call ran fails only after the calls are over.
    fail(new Error('late'))
    await vi.advanceTimersByTimeAsync(5000)
    expect(dead).toEqual([])
  })

  it('takes a ping that times out for a busy server, not a dead one', async () => {
    vi.useFakeTimers()
    const timeout = new McpError(ErrorCode.RequestTimeout, 'Request timed out')
    const ping = (): Promise<void> => Promise.reject(timeout)
    const dead: string[] = []
    const liveness = new RemoteLiveness(ping, (why) => dead.push(why), 1000)
    const end = liveness.begin()
    liveness.poke()
    await vi.advanceTimersByTimeAsync(3000)
    expect(dead).toEqual([])
    end()
  })
})
