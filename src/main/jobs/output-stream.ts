import { StringDecoder } from 'node:string_decoder'
import type { ByteRing } from './ring-buffer'
import { incompleteUtf8Tail, orphanUtf8Head } from './terminal-text'

/** A batch goes out after this long, or sooner once it holds BATCH_CHARS. */
export const BATCH_MS = 16
export const BATCH_CHARS = 200_000
/** Reading pauses when a viewer has this much unacknowledged, and resumes under LOW_WATER. */
export const HIGH_WATER = 500_000
export const LOW_WATER = 100_000
/** A viewer that acknowledges nothing for this long while the job waits on it is let go. */
export const STALE_VIEWER_MS = 10_000
const STALE_CHECK_MS = 1000

/** The start of a viewer's copy: what the ring holds, and the batch it follows. */
export interface OutputSnapshot {
  data: string
  /** The number of the last batch already in `data`; later batches continue it. */
  seq: number
  /** Bytes the ring no longer holds, before `data`. */
  droppedBytes: number
}

export interface OutputBatch {
  data: string
  seq: number
}

/** What the stream needs from the process it reads: a tap to stop and start the flow. */
export interface FlowTap {
  pause(): void
  resume(): void
}

interface Viewer {
  unacked: number
  /** When the oldest unacknowledged output went out, if any is. */
  waitingSince: number | null
}

/**
 * Carries one job's output to the windows that watch it: decoded with a StringDecoder so no
 * character is split, sent in batches (every 16 ms or 200 K characters), and with flow control:
 * when a viewer falls HIGH_WATER characters behind, the pty stops being read until it catches
 * up. With no viewer nothing is decoded or sent; the ring buffer alone keeps the tail.
 */
export class OutputStream {
  private readonly decoder = new StringDecoder('utf8')
  private readonly viewers = new Map<string, Viewer>()
  private pending = ''
  private seq = 0
  private timer: NodeJS.Timeout | null = null
  private paused = false
  private closed = false
  private staleCheck: NodeJS.Timeout | null = null

  constructor(
    private readonly ring: ByteRing,
    private readonly tap: FlowTap,
    private readonly emit: (batch: OutputBatch) => void,
    private readonly now: () => number = Date.now
  ) {}

  get viewerCount(): number {
    return this.viewers.size
  }

  /** Called with every chunk after it went into the ring. */
  push(chunk: Buffer): void {
    if (this.viewers.size === 0 || this.closed) return
    this.pending += this.decoder.write(chunk)
    if (this.pending.length >= BATCH_CHARS) this.flush()
    else this.timer ??= setTimeout(() => this.flush(), BATCH_MS)
  }

  /**
   * Starts (or restarts) `viewer` on this job: returns what the ring holds, with the number of
   * the last batch in it, so batches that crossed on the wire can be told apart.
   */
  follow(viewer: string): OutputSnapshot {
    this.flush()
    const bytes = this.ring.tail()
    const skip = this.ring.droppedBytes > 0 ? orphanUtf8Head(bytes) : 0
    // A character still arriving is left out: it goes out whole in the next batch. When the
    // decoder is idle, it is handed those first bytes so that it can complete it.
    const cut = this.closed ? 0 : incompleteUtf8Tail(bytes)
    if (!this.closed) {
      if (this.viewers.size === 0 && cut > 0) this.decoder.write(bytes.subarray(bytes.length - cut))
      this.viewers.set(viewer, { unacked: 0, waitingSince: null })
      this.updateFlow()
    }
    return {
      data: bytes.toString('utf8', skip, Math.max(skip, bytes.length - cut)),
      seq: this.seq,
      droppedBytes: this.ring.droppedBytes
    }
  }

  unfollow(viewer: string): void {
    this.viewers.delete(viewer)
    if (this.viewers.size === 0) {
      this.flush()
      this.pending = ''
      // A fresh follow decodes from a snapshot; what the decoder held is in the ring.
      this.decoder.end()
    }
    this.updateFlow()
  }

  ack(viewer: string, chars: number): void {
    const state = this.viewers.get(viewer)
    if (!state) return
    state.unacked = Math.max(0, state.unacked - chars)
    state.waitingSince = state.unacked > 0 ? this.now() : null
    this.updateFlow()
  }

  /** The output ended: the last characters go out and nothing waits on viewers any more. */
  close(): void {
    if (this.closed) return
    if (this.viewers.size > 0) this.pending += this.decoder.end()
    this.flush()
    this.closed = true
    this.viewers.clear()
    this.setPaused(false)
  }

  /** Sends what is pending now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.pending === '' || this.viewers.size === 0) return
    const data = this.pending
    this.pending = ''
    this.seq++
    const at = this.now()
    for (const state of this.viewers.values()) {
      state.unacked += data.length
      state.waitingSince ??= at
    }
    this.emit({ data, seq: this.seq })
    this.updateFlow()
  }

  /** Lets go of viewers that stopped acknowledging; runs every second while reading is paused. */
  sweep(): void {
    this.updateFlow()
  }

  private updateFlow(): void {
    if (this.closed) return
    const at = this.now()
    for (const [name, state] of this.viewers) {
      // A window that closed without saying so must not hold the job forever.
      if (state.waitingSince !== null && at - state.waitingSince > STALE_VIEWER_MS) {
        this.viewers.delete(name)
      }
    }
    let behind = 0
    for (const state of this.viewers.values()) behind = Math.max(behind, state.unacked)
    if (behind >= HIGH_WATER) this.setPaused(true)
    else if (behind <= LOW_WATER) this.setPaused(false)
  }

  private setPaused(paused: boolean): void {
    if (paused === this.paused) return
    this.paused = paused
    if (this.staleCheck) clearInterval(this.staleCheck)
    this.staleCheck = null
    if (paused) {
      this.tap.pause()
      // Nothing else would look at the viewers while no output moves.
      this.staleCheck = setInterval(() => this.sweep(), STALE_CHECK_MS)
    } else {
      this.tap.resume()
    }
  }

  get isPaused(): boolean {
    return this.paused
  }
}
