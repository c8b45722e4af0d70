import { findInPieces } from './find-match'

/** The CSS highlights the hits are painted with (see find.css). */
export const HIT_HIGHLIGHT = 'mecatl-find-hit'
export const CURRENT_HIGHLIGHT = 'mecatl-find-current'

/** Text that is chrome, not conversation: buttons, and what a component marks as such. */
const SKIPPED = 'button, [data-find-skip], script, style, textarea, input'

/**
 * The hits of `query` in the transcript as it is rendered, in reading order. Each transcript item
 * is searched as one text across its text nodes (a hit may run through a bold word), never
 * across two items; text that is not shown (a collapsed block) is left out, since a hit there
 * could be neither seen nor scrolled to.
 */
export function findRanges(root: Element, query: string): Range[] {
  const ranges: Range[] = []
  for (const item of Array.from(root.children)) {
    const nodes: Text[] = []
    const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement
      if (!parent || parent.closest(SKIPPED) || !parent.checkVisibility()) continue
      nodes.push(node as Text)
    }
    if (nodes.length === 0) continue
    for (const match of findInPieces(
      nodes.map((node) => node.data),
      query
    )) {
      const range = document.createRange()
      const start = nodes[match.start.piece]
      const end = nodes[match.end.piece]
      if (!start || !end) continue
      range.setStart(start, match.start.offset)
      range.setEnd(end, match.end.offset)
      ranges.push(range)
    }
  }
  return ranges
}

/**
 * Paints the hits without touching the DOM React owns: the CSS Custom Highlight API marks
 * ranges, so nothing is wrapped, and React's next render cannot undo or trip over it.
 */
export function paintRanges(ranges: readonly Range[], current: number): void {
  if (typeof CSS === 'undefined' || !('highlights' in CSS)) return
  const chosen = ranges[current]
  CSS.highlights.set(HIT_HIGHLIGHT, new Highlight(...ranges.filter((r) => r !== chosen)))
  if (chosen) CSS.highlights.set(CURRENT_HIGHLIGHT, new Highlight(chosen))
  else CSS.highlights.delete(CURRENT_HIGHLIGHT)
}

export function clearPaint(): void {
  if (typeof CSS === 'undefined' || !('highlights' in CSS)) return
  CSS.highlights.delete(HIT_HIGHLIGHT)
  CSS.highlights.delete(CURRENT_HIGHLIGHT)
}

/** Scrolls the transcript so the hit sits in the middle of it. */
export function revealRange(range: Range): void {
  const scroller = range.startContainer.parentElement?.closest('[data-testid="transcript"]')
  if (!(scroller instanceof HTMLElement)) return
  const box = range.getBoundingClientRect()
  const view = scroller.getBoundingClientRect()
  const middle = box.top + box.height / 2 - (view.top + view.height / 2)
  scroller.scrollTop += middle
}

/** The first hit from the top of what the transcript shows now, else the last one. */
export function firstInView(ranges: readonly Range[], scroller: Element | null): number {
  if (ranges.length === 0 || !scroller) return 0
  const top = scroller.getBoundingClientRect().top
  const at = ranges.findIndex((range) => range.getBoundingClientRect().bottom >= top)
  return at < 0 ? ranges.length - 1 : at
}
