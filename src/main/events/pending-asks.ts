/**
 * Asks waiting for a person's answer in the window, by id: the approver's requests, AskUser's
 * questions and MCP servers' forms. Each waits until it is answered, or until its signal stops it
 * (it then gets the answer given for that), and is settled once: its asker hears the answer and
 * `resolved` is told, so the windows can close it.
 */
export class PendingAsks<Asked, Answer> {
  private readonly waiting = new Map<string, { asked: Asked; settle: (answer: Answer) => void }>()

  constructor(private readonly resolved: (id: string, asked: Asked, answer: Answer) => void) {}

  /**
   * Waits for the answer to `asked`: `announce` shows it once it waits, and a stop of `signal`
   * (already, or meanwhile) answers `stopped`.
   */
  wait(
    id: string,
    asked: Asked,
    signal: AbortSignal,
    stopped: Answer,
    announce: () => void
  ): Promise<Answer> {
    return new Promise((resolve) => {
      const onAbort = (): void => void this.settle(id, stopped)
      this.waiting.set(id, {
        asked,
        settle: (answer) => {
          signal.removeEventListener('abort', onAbort)
          resolve(answer)
        }
      })
      if (signal.aborted) return onAbort()
      signal.addEventListener('abort', onAbort, { once: true })
      announce()
    })
  }

  /** What waits under `id`, if anything does. */
  get(id: string): Asked | undefined {
    return this.waiting.get(id)?.asked
  }

  /** Everything still waiting that `which` picks, in the order asked. */
  pending(which: (asked: Asked) => boolean): Asked[] {
    return [...this.waiting.values()].map((w) => w.asked).filter(which)
  }

  /** Answers the ask `id`; false when nothing waits under it (already answered, or stopped). */
  settle(id: string, answer: Answer): boolean {
    const waiting = this.waiting.get(id)
    if (!waiting) return false
    this.waiting.delete(id)
    waiting.settle(answer)
    this.resolved(id, waiting.asked, answer)
    return true
  }
}
