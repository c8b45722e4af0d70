/**
 * A signal that aborts after `ms` (or when `parent` does), held by its own timer, and a way to
 * end it once the work is done.
 *
 * Not `AbortSignal.timeout` / `AbortSignal.any`: their timer and sources hold the signal only
 * through a WeakRef, so the deadline lasts only as long as something else keeps the signal, and
 * nothing clears it early, so every request leaves a timer behind for the whole limit. Here the
 * timer and the parent's listener hold the controller until `clear`. (A body being read also
 * needs net/abortable-fetch.ts: Node 20's fetch can lose the signal itself.)
 */
export interface Deadline {
  readonly signal: AbortSignal
  /** Whether the deadline (not the parent) ended it. */
  readonly expired: boolean
  /** Stops the timer and lets go of the parent; call it once the work is done. */
  clear(): void
}

export function deadline(ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController()
  let expired = false
  const onParent = (): void => controller.abort(parent?.reason)
  const timer = setTimeout(() => {
    expired = true
    controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError'))
  }, ms)
  // Unref'd only for the event loop: the timer list still holds it, and so the controller.
  timer.unref()
  if (parent?.aborted) onParent()
  else parent?.addEventListener('abort', onParent, { once: true })
  return {
    signal: controller.signal,
    get expired() {
      return expired
    },
    clear: () => {
      clearTimeout(timer)
      parent?.removeEventListener('abort', onParent)
    }
  }
}

/** Runs `work` under a deadline of `ms` (and `parent`), clearing it however the work ends. */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal, limit: Deadline) => Promise<T>,
  parent?: AbortSignal
): Promise<T> {
  const limit = deadline(ms, parent)
  try {
    return await work(limit.signal, limit)
  } finally {
    limit.clear()
  }
}
