import { useEffect, useState, type JSX, type RefObject } from 'react'
import {
  currentSection,
  sectionElementId,
  type SectionId,
  type SettingsSection
} from './settings-sections'
import './settings-nav.css'

/** Tracks which section of the scroll area is being read, for the list's highlight. */
function useCurrentSection(
  scroller: RefObject<HTMLDivElement | null>,
  sections: readonly SettingsSection[]
): [SectionId | null, (id: SectionId) => void] {
  const [current, setCurrent] = useState<SectionId | null>(sections[0]?.id ?? null)
  useEffect(() => {
    const box = scroller.current
    if (!box) return
    const measure = (): void => {
      const origin = box.getBoundingClientRect().top - box.scrollTop
      const tops = sections.flatMap((section) => {
        const element = document.getElementById(sectionElementId(section.id))
        return element
          ? [{ id: section.id, top: element.getBoundingClientRect().top - origin }]
          : []
      })
      const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 2
      setCurrent(currentSection(tops, box.scrollTop, atBottom && box.scrollTop > 0))
    }
    const frame = requestAnimationFrame(measure)
    box.addEventListener('scroll', measure, { passive: true })
    return () => {
      cancelAnimationFrame(frame)
      box.removeEventListener('scroll', measure)
    }
  }, [scroller, sections])
  const go = (id: SectionId): void => {
    const element = document.getElementById(sectionElementId(id))
    element?.scrollIntoView({ block: 'start' })
    // Focus follows, so a keyboard or screen-reader user lands where the eye does.
    element?.focus({ preventScroll: true })
    setCurrent(id)
  }
  return [current, go]
}

/**
 * The section list beside Settings: every part of the page by name, the one being read marked.
 * The page is one form with one Save bar, so moving between sections keeps edits pending.
 */
export function SettingsNav({
  sections,
  scroller,
  unsaved,
  summary
}: {
  sections: readonly SettingsSection[]
  scroller: RefObject<HTMLDivElement | null>
  /** The sections with unsaved edits, marked in the list. */
  unsaved: readonly SectionId[]
  /** What the Save bar says ("Unsaved changes in …"), or empty when all is saved. */
  summary: string
}): JSX.Element {
  const [current, go] = useCurrentSection(scroller, sections)
  return (
    <nav className="settings-nav" aria-label="Settings sections" data-testid="settings-nav">
      <ul className="settings-nav__list">
        {sections.map((section) => (
          <li key={section.id}>
            <a
              href={`#${sectionElementId(section.id)}`}
              className={`settings-nav__link${current === section.id ? ' settings-nav__link--current' : ''}`}
              aria-current={current === section.id ? 'location' : undefined}
              data-testid={`settings-nav-${section.id}`}
              onClick={(event) => {
                event.preventDefault()
                go(section.id)
              }}
            >
              {section.label}
            </a>
            {unsaved.includes(section.id) && (
              // The words are in the note below; the dot only shows where.
              <span
                className="settings-nav__dot"
                aria-hidden="true"
                data-testid={`settings-nav-dirty-${section.id}`}
              />
            )}
          </li>
        ))}
      </ul>
      {summary && (
        <p className="settings-nav__unsaved" data-testid="settings-nav-unsaved">
          {summary}: Save is at the bottom.
        </p>
      )}
    </nav>
  )
}

/** A section's block in the page, the target of its entry in the list. */
export function SectionBlock({
  id,
  children
}: {
  id: SectionId
  children: JSX.Element | (JSX.Element | false)[] | false
}): JSX.Element {
  return (
    <div
      id={sectionElementId(id)}
      className="settings-block"
      tabIndex={-1}
      data-testid={`settings-block-${id}`}
    >
      {children}
    </div>
  )
}
