import type { JSX, ReactNode } from 'react'

/** One titled block of Settings: its heading names the region for assistive technology. */
export function SettingsCard({
  name,
  title,
  testId,
  children
}: {
  /** Makes the heading's id (`<name>-heading`). */
  name: string
  title: string
  testId: string
  children: ReactNode
}): JSX.Element {
  return (
    <section className="settings-section" aria-labelledby={`${name}-heading`} data-testid={testId}>
      <h2 id={`${name}-heading`} className="settings-section__title">
        {title}
      </h2>
      {children}
    </section>
  )
}
