import { useEffect, useRef, type RefObject } from 'react'

/** Where on the scroller's top edge the reading line is sought, from the content's left. */
const PROBE_X = [32, 120]
const PROBE_Y = [4, 16, 40, 80]

interface Anchor {
  element: Element
  /** Its top, from the scroller's top, when the person last scrolled. */
  offset: number
}

/**
 * Keeps the line the person is reading where it was when the transcript's width changes (a
 * panel opening or closing beside it, the sidebar, the window): the text rewraps, and the same
 * scrollTop would show another place. The element at the top of the view is noted at each scroll
 * of the person's; after a width change it is put back at its offset, again at every change of
 * the content's size (rows re-measured, rewrapped), until the person scrolls again. Nothing is
 * done while `free` says the view follows the bottom or the find bar holds it.
 */
export function useReadingAnchor(
  scroller: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
  free: () => boolean
): { onScroll: () => void } {
  const anchor = useRef<Anchor | null>(null)
  // After a width change the scroll events are ours and the virtualizer's, not the person's.
  const settling = useRef(false)
  const freeRef = useRef(free)
  useEffect(() => {
    freeRef.current = free
  })

  useEffect(() => {
    const view = scroller.current
    const body = content.current
    if (!view || !body) return
    let width = view.clientWidth
    const restore = (): void => {
      const noted = anchor.current
      if (!freeRef.current() || !noted || !noted.element.isConnected) {
        settling.current = false
        return
      }
      const top = noted.element.getBoundingClientRect().top - view.getBoundingClientRect().top
      const off = top - noted.offset
      if (Math.abs(off) >= 1) view.scrollTop += off
    }
    const onViewResize = (): void => {
      if (view.clientWidth === width) return
      width = view.clientWidth
      settling.current = true
      restore()
    }
    const onBodyResize = (): void => {
      if (settling.current) restore()
    }
    const personScrolls = (): void => {
      settling.current = false
    }
    const viewObserver = new ResizeObserver(onViewResize)
    const bodyObserver = new ResizeObserver(onBodyResize)
    viewObserver.observe(view)
    bodyObserver.observe(body)
    const inputs = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const
    for (const name of inputs) view.addEventListener(name, personScrolls, { passive: true })
    return () => {
      viewObserver.disconnect()
      bodyObserver.disconnect()
      for (const name of inputs) view.removeEventListener(name, personScrolls)
    }
  }, [scroller, content])

  const onScroll = (): void => {
    const view = scroller.current
    const body = content.current
    if (!view || !body || settling.current) return
    anchor.current = readingLine(view, body)
  }
  return { onScroll }
}

/** The innermost element of the transcript at the top of the view, and how far down it starts. */
function readingLine(view: HTMLElement, body: HTMLElement): Anchor | null {
  const frame = view.getBoundingClientRect()
  const left = body.getBoundingClientRect().left
  for (const dy of PROBE_Y) {
    for (const dx of PROBE_X) {
      const element = document.elementFromPoint(left + dx, frame.top + dy)
      if (!element || element === body || !body.contains(element)) continue
      const box = element.getBoundingClientRect()
      // A container taller than the view (the rows' box) says nothing about the line read.
      if (box.height <= frame.height) return { element, offset: box.top - frame.top }
    }
  }
  return null
}
