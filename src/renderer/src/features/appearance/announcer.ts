import { subscribe } from '../../bridge/client'
import { sessionTitle } from '../sessions'
import { createAnnouncements } from './announcement'

/** The live region's element id, for tests and for anything that wants to read it back. */
export const ANNOUNCER_ID = 'mecatl-announcer'

let wired = false

/**
 * A polite live region that tells a screen reader when a reply finished, an approval waits or a
 * background job ended, without moving focus. Outside React, so it exists before the first
 * render and no screen's re-render can drop a message. Call once.
 */
export function wireAnnouncer(): void {
  if (wired) return
  wired = true
  const region = document.createElement('div')
  region.id = ANNOUNCER_ID
  region.className = 'visually-hidden'
  region.setAttribute('role', 'status')
  region.setAttribute('aria-live', 'polite')
  region.setAttribute('aria-atomic', 'true')
  region.dataset.testid = 'announcer'
  document.body.append(region)
  const next = createAnnouncements(sessionTitle)
  let queued: string[] = []
  subscribe((event) => {
    const text = next(event)
    if (text === null) return
    // Screen readers announce a change: emptying first lets the same words be said twice, and
    // what arrives together is said together rather than the last one replacing the others.
    region.textContent = ''
    queued.push(text)
    if (queued.length > 1) return
    setTimeout(() => {
      region.textContent = queued.join(' ')
      queued = []
    }, 50)
  })
}
