/**
 * Answers to requests made one after another, of which only the newest counts: the finder asks
 * on every keystroke, and an answer to an older query that arrives late must not replace the
 * newer one's.
 */
export class LatestOnly {
  private newest = 0

  /** Marks a new request; its number is passed to `isNewest` when its answer comes. */
  begin(): number {
    return ++this.newest
  }

  /** Whether the request numbered `ticket` is still the newest one. */
  isNewest(ticket: number): boolean {
    return ticket === this.newest
  }

  /** Every request made so far is stale now (the finder closed). */
  drop(): void {
    this.newest++
  }
}
