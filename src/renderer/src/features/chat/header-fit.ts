import { useLayoutEffect, useRef, useState, type RefObject } from 'react'

/**
 * How far the chat header has given way to stay one row: 0 everything shown; 1 the controls
 * show their icons without their words; 2 the session's secondary controls go into the "More"
 * menu; 3 the model's name may be cut, its full name in the title.
 */
export type HeaderFit = 0 | 1 | 2 | 3

const MOST: HeaderFit = 3
/** Room to spare before giving a step back, so a width on the edge does not flicker. */
const SLACK = 12

/**
 * The next step for a header that is `scrollWidth` wide inside `clientWidth`: one further when
 * it overflows; one back when the width it overflowed at before that step is now available.
 * `needed` holds, per step, the width the header needed at it; it is updated in place.
 */
export function nextFit(
  fit: HeaderFit,
  size: { scrollWidth: number; clientWidth: number },
  needed: number[]
): HeaderFit {
  if (size.scrollWidth > size.clientWidth + 0.5) {
    if (fit === MOST) return fit
    needed[fit] = size.scrollWidth
    return (fit + 1) as HeaderFit
  }
  const back = fit > 0 ? needed[fit - 1] : undefined
  if (back !== undefined && size.clientWidth >= back + SLACK) return (fit - 1) as HeaderFit
  return fit
}

/** Watches the header (its width and whatever appears in it) and says how far it gives way. */
export function useHeaderFit(header: RefObject<HTMLElement | null>): HeaderFit {
  const [fit, setFit] = useState<HeaderFit>(0)
  const needed = useRef<number[]>([])
  const current = useRef<HeaderFit>(0)

  useLayoutEffect(() => {
    current.current = fit
    const el = header.current
    if (!el) return
    const check = (): void => {
      const next = nextFit(current.current, el, needed.current)
      if (next !== current.current) {
        current.current = next
        setFit(next)
      }
    }
    // Each step re-renders the header: measure again until it holds.
    check()
    const resize = new ResizeObserver(check)
    resize.observe(el)
    const changes = new MutationObserver(check)
    changes.observe(el, { childList: true, subtree: true, characterData: true })
    return () => {
      resize.disconnect()
      changes.disconnect()
    }
  }, [header, fit])
  return fit
}
