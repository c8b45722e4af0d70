import type { JobUrl } from '../../shared/jobs'
import { stripAnsi } from './terminal-text'

const SCHEME_MARK = Buffer.from('://')
/** Bytes looked at around each `://`: enough for a URL with colour codes around its parts. */
const WINDOW_BEFORE = 8
const WINDOW_AFTER = 400
/** Kept from one chunk to the next, so a URL split across two reads is still found. */
const CARRY = WINDOW_AFTER + WINDOW_BEFORE
const MAX_URLS = 8

const LOCAL_URL =
  /https?:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]):\d{1,5}(?:[/?#][^\s'"<>`]*)?/

/**
 * Finds the local addresses a job prints (`http://localhost:5173/`, `http://127.0.0.1:8000`),
 * even when colour codes sit inside them, as dev servers print them. Sees raw pty bytes.
 */
export class UrlDetector {
  private carry: Buffer = Buffer.alloc(0)
  private readonly found = new Map<string, JobUrl>()

  get urls(): JobUrl[] {
    return [...this.found.values()]
  }

  /** Feeds the next chunk; returns true when it revealed a new URL. */
  feed(chunk: Buffer): boolean {
    if (this.found.size >= MAX_URLS) return false
    const view = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk
    const added = this.scan(view, false)
    this.carry = Buffer.from(view.subarray(Math.max(0, view.length - CARRY)))
    return added
  }

  /** The output ended: a URL at the very end counts now. */
  end(): boolean {
    const added = this.found.size < MAX_URLS && this.scan(this.carry, true)
    this.carry = Buffer.alloc(0)
    return added
  }

  private scan(view: Buffer, final: boolean): boolean {
    let added = false
    let from = 0
    for (;;) {
      const at = view.indexOf(SCHEME_MARK, from)
      if (at === -1) break
      from = at + SCHEME_MARK.length
      const begin = Math.max(0, at - WINDOW_BEFORE)
      const end = Math.min(view.length, at + WINDOW_AFTER)
      const text = stripAnsi(view.toString('latin1', begin, end))
      const match = LOCAL_URL.exec(text)
      if (!match) continue
      // A match that runs to the end of what has arrived may still be growing.
      const complete = final || end < view.length || match.index + match[0].length < text.length
      if (!complete) continue
      const url = match[0].replace(/[.,;:!?)\]}]+$/, '')
      if (this.found.has(url)) continue
      this.found.set(url, {
        text: url,
        href: url.replace(/\/\/(?:0\.0\.0\.0|\[::\])/, '//localhost')
      })
      added = true
      if (this.found.size >= MAX_URLS) break
    }
    return added
  }
}
