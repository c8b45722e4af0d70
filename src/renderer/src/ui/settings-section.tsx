import type { JSX, ReactNode } from 'react'

/**
 * One titled block of Settings: its heading names the region for assistive technology. Given an
 * `intro` or an `aside`, the heading stands in a head row: the title over the intro on the left,
 * the aside (a switch, an Add button) on the right.
 */
export function SettingsSection({
  name,
  title,
  testId,
  intro,
  aside,
  children
}: {
  /** Makes the heading's id (`<name>-heading`). */
  name: string
  title: string
  testId?: string
  intro?: ReactNode
  aside?: ReactNode
  children: ReactNode
}): JSX.Element {
  const heading = (
    <h2 id={`${name}-heading`} className="settings-section__title">
      {title}
    </h2>
  )
  return (
    <section className="settings-section" aria-labelledby={`${name}-heading`} data-testid={testId}>
      {intro === undefined && aside === undefined ? (
        heading
      ) : (
        <div className="settings-section__head">
          <div>
            {heading}
            {intro !== undefined && <p className="settings-section__hint">{intro}</p>}
          </div>
          {aside}
        </div>
      )}
      {children}
    </section>
  )
}
