import { describe, expect, it } from 'vitest'
import {
  BATCH_CHARS,
  HIGH_WATER,
  LOW_WATER,
  OutputStream,
  STALE_VIEWER_MS,
  type OutputBatch
} from './output-stream'
import { ByteRing } from './ring-buffer'

/** A stream over a real ring, recording what it sends and whether reading is paused. */
function setup(capacity = 1 << 20): {
  stream: OutputStream
  ring: ByteRing
  batches: OutputBatch[]
  tap: { paused: boolean }
  push: (chunk: string | Buffer) => void
  clock: { now: number }
} {
  const ring = new ByteRing(capacity)
  const batches: OutputBatch[] = []
  const tap = {
    paused: false,
    pause(): void {
      this.paused = true
    },
    resume(): void {
      this.paused = false
    }
  }
  const clock = { now: 0 }
  const stream = new OutputStream(
    ring,
    tap,
    (batch) => batches.push(batch),
    () => clock.now
  )
  const push = (chunk: string | Buffer): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    ring.push(bytes)
    stream.push(bytes)
  }
  return { stream, ring, batches, tap, push, clock }
}

describe('OutputStream', () => {
  it('sends nothing while nobody watches', () => {
    const { stream, batches, push } = setup()
    push('hello\n')
    stream.flush()
    expect(batches).toEqual([])
  })

  it('joins chunks into one batch', () => {
    const { stream, batches, push } = setup()
    stream.follow('w1')
    push('a')
    push('b')
    push('c')
    stream.flush()
    expect(batches).toEqual([{ data: 'abc', seq: 1 }])
    stream.close()
  })

  it('sends a batch at once when it reaches its size', () => {
    const { stream, batches, push } = setup()
    stream.follow('w1')
    push('x'.repeat(BATCH_CHARS))
    expect(batches.map((b) => b.data.length)).toEqual([BATCH_CHARS])
    stream.close()
  })

  it('never splits a UTF-8 character across batches or the snapshot', () => {
    const { stream, batches, push } = setup()
    const euro = Buffer.from('€')
    push('price: ')
    push(euro.subarray(0, 1))
    const snapshot = stream.follow('w1')
    expect(snapshot.data).toBe('price: ')
    push(euro.subarray(1, 2))
    stream.flush()
    push(Buffer.concat([euro.subarray(2), Buffer.from(' 5\n')]))
    stream.flush()
    const all = snapshot.data + batches.map((b) => b.data).join('')
    expect(all).toBe('price: € 5\n')
    expect(all).not.toContain('\ufffd')
    stream.close()
  })

  it('starts a viewer with the ring’s tail and numbers the batches after it', () => {
    const { stream, batches, push } = setup()
    stream.follow('w1')
    push('one\n')
    const late = stream.follow('w2')
    expect(batches).toEqual([{ data: 'one\n', seq: 1 }])
    expect(late).toEqual({ data: 'one\n', seq: 1, droppedBytes: 0 })
    push('two\n')
    stream.flush()
    expect(batches.at(-1)).toEqual({ data: 'two\n', seq: 2 })
    stream.close()
  })

  it('reports what the ring dropped and starts on a whole character', () => {
    const { stream, push } = setup(8)
    push('ab€€€') // 2 + 9 bytes: the ring keeps the last 8, starting inside a €
    const snapshot = stream.follow('w1')
    expect(snapshot.droppedBytes).toBe(3)
    expect(snapshot.data).toBe('€€')
    stream.close()
  })

  it('pauses reading when a viewer falls behind and resumes when it catches up', () => {
    const { stream, push, tap } = setup()
    stream.follow('w1')
    push('x'.repeat(HIGH_WATER))
    stream.flush()
    expect(tap.paused).toBe(true)
    stream.ack('w1', HIGH_WATER - LOW_WATER - 1)
    expect(tap.paused).toBe(true)
    stream.ack('w1', 1)
    expect(tap.paused).toBe(false)
    stream.close()
  })

  it('is paced by the slowest viewer', () => {
    const { stream, push, tap } = setup()
    stream.follow('fast')
    stream.follow('slow')
    push('x'.repeat(HIGH_WATER))
    stream.flush()
    stream.ack('fast', HIGH_WATER)
    expect(tap.paused).toBe(true)
    stream.unfollow('slow')
    expect(tap.paused).toBe(false)
    stream.close()
  })

  it('lets go of a viewer that stopped acknowledging, so the job goes on', () => {
    const { stream, push, tap, clock } = setup()
    stream.follow('gone')
    push('x'.repeat(HIGH_WATER))
    stream.flush()
    expect(tap.paused).toBe(true)
    clock.now += STALE_VIEWER_MS + 1
    stream.sweep()
    expect(tap.paused).toBe(false)
    expect(stream.viewerCount).toBe(0)
    stream.close()
  })

  it('sends the rest on close and never pauses after it', () => {
    const { stream, batches, push, tap } = setup()
    stream.follow('w1')
    push('last words')
    stream.close()
    expect(batches.at(-1)?.data).toBe('last words')
    expect(tap.paused).toBe(false)
    // A snapshot after the end has everything.
    expect(stream.follow('w2').data).toBe('last words')
  })
})
