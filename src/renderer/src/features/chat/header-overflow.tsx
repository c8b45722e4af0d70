import { useCallback, useRef, useState, type JSX, type ReactNode } from 'react'
import { useDismiss } from '../../lib/use-dismiss'

/**
 * The chat header's secondary controls: in the row while there is room, and behind a "More"
 * button when the header has had to give way (see header-fit), so the header stays one row.
 */
export function HeaderOverflow({
  folded,
  children
}: {
  folded: boolean
  children: ReactNode
}): JSX.Element {
  const [open, setOpen] = useState(false)
  const close = useCallback(() => setOpen(false), [])
  const root = useRef<HTMLDivElement>(null)

  useDismiss(open, close, root)

  if (!folded) return <>{children}</>
  return (
    <div className="header-more" ref={root}>
      <button
        type="button"
        className="header-more__button"
        aria-label="More session controls"
        aria-expanded={open}
        title="More session controls"
        onClick={() => setOpen((v) => !v)}
        data-testid="header-more"
      >
        <svg width={16} height={16} viewBox="0 0 16 16" fill="currentColor" aria-hidden="true">
          <circle cx="3.5" cy="8" r="1.25" />
          <circle cx="8" cy="8" r="1.25" />
          <circle cx="12.5" cy="8" r="1.25" />
        </svg>
      </button>
      {open && (
        <div className="header-more__popover" data-testid="header-more-menu">
          {children}
        </div>
      )}
    </div>
  )
}
