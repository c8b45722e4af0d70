import type { JSX, ReactNode } from 'react'

/**
 * The head of a question asked in a modal (`.modal.approval`): an icon, the title that names the
 * dialog (its `id` goes to the Dialog's `labelledBy`) and a line on what it is about.
 */
export function ModalHeader({
  icon,
  titleId,
  title,
  meta
}: {
  icon: ReactNode
  titleId: string
  title: ReactNode
  /** Under the title: an `.approval__meta` line, given whole (its class and title vary). */
  meta?: ReactNode
}): JSX.Element {
  return (
    <header className="approval__header">
      <span className="approval__icon">{icon}</span>
      <div className="approval__heading">
        <h2 id={titleId} className="approval__title">
          {title}
        </h2>
        {meta}
      </div>
    </header>
  )
}

/** The foot of such a modal: a hint on the left, then its buttons. */
export function ModalFooter({
  lead,
  hint,
  hintTitle,
  children
}: {
  /** Before the hint: a way aside from the question (Review in transcript). */
  lead?: ReactNode
  hint: ReactNode
  hintTitle?: string
  children: ReactNode
}): JSX.Element {
  return (
    <footer className="approval__footer">
      {lead}
      <span className="approval__hint" title={hintTitle}>
        {hint}
      </span>
      {children}
    </footer>
  )
}
