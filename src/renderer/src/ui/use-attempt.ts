import { useState } from 'react'

export interface Attempt {
  /** True from `run` until its action settles. */
  busy: boolean
  /** What the last action said went wrong; null once one succeeds. */
  error: string | null
  /** Starts an action that answers with what went wrong, or null when it worked. */
  run: (action: () => Promise<string | null>) => void
}

/** A button's action that may fail, kept as whether it is running and why it last failed. */
export function useAttempt(): Attempt {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = (action: () => Promise<string | null>): void => {
    setBusy(true)
    void action().then((failed) => {
      setBusy(false)
      setError(failed)
    })
  }
  return { busy, error, run }
}
