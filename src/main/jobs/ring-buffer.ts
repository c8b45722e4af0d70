/**
 * The last `capacity` bytes a job printed, in one circular buffer that grows on demand up to its
 * capacity: a command that prints without end costs at most `capacity` bytes, and what was
 * dropped from the front is counted so it can be reported.
 */
export class ByteRing {
  private buffer = Buffer.alloc(0)
  private start = 0
  private size = 0
  private total = 0

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`a ring buffer needs a positive capacity (got ${capacity})`)
    }
  }

  /** Bytes pushed since the start, kept or not. */
  get totalBytes(): number {
    return this.total
  }

  /** Bytes pushed and then dropped to make room. */
  get droppedBytes(): number {
    return this.total - this.size
  }

  /** Bytes held now. */
  get length(): number {
    return this.size
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return
    this.total += chunk.length
    if (chunk.length >= this.capacity) {
      this.reserve(this.capacity)
      this.buffer.set(chunk.subarray(chunk.length - this.capacity))
      this.start = 0
      this.size = this.capacity
      return
    }
    this.reserve(this.size + chunk.length)
    const room = this.buffer.length
    const end = (this.start + this.size) % room
    const first = Math.min(chunk.length, room - end)
    this.buffer.set(chunk.subarray(0, first), end)
    if (first < chunk.length) this.buffer.set(chunk.subarray(first), 0)
    this.size += chunk.length
    if (this.size > room) {
      this.start = (this.start + this.size - room) % room
      this.size = room
    }
  }

  /** A copy of the last `maxBytes` bytes held (all of them by default), oldest first. */
  tail(maxBytes = this.size): Buffer {
    const count = Math.max(0, Math.min(maxBytes, this.size))
    const out = Buffer.allocUnsafe(count)
    const room = this.buffer.length
    const from = room === 0 ? 0 : (this.start + this.size - count) % room
    const first = Math.min(count, room - from)
    this.buffer.copy(out, 0, from, from + first)
    if (first < count) this.buffer.copy(out, first, 0, count - first)
    return out
  }

  /** Lets the memory go; what was held counts as dropped from now on. */
  release(): void {
    this.buffer = Buffer.alloc(0)
    this.start = 0
    this.size = 0
  }

  /** Grows the backing buffer (doubling, up to the capacity) so `needed` bytes fit if they can. */
  private reserve(needed: number): void {
    const current = this.buffer.length
    if (current >= this.capacity || needed <= current) return
    const next = Math.min(this.capacity, Math.max(needed, current * 2, 4096))
    const grown = Buffer.allocUnsafe(next)
    const held = this.tail()
    held.copy(grown, 0)
    this.buffer = grown
    this.start = 0
  }
}
