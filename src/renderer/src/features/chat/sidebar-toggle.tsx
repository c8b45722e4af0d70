import type { JSX } from 'react'
import { shortcutLabel, currentPlatform } from '../shortcuts'
import { toggleSidebar, useSidebarShown } from '../../app/layout-store'

function SidebarIcon(): JSX.Element {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="1.5" />
      <path d="M6 2.75v10.5" />
    </svg>
  )
}

/** The chat header's first button: shows or hides the sessions sidebar (as Ctrl/Cmd+B does). */
export function SidebarToggle(): JSX.Element {
  const shown = useSidebarShown()
  const keys = shortcutLabel('sidebar', currentPlatform())
  const label = shown ? 'Hide the sidebar' : 'Show the sidebar'
  return (
    <button
      type="button"
      className="sidebar-toggle"
      onClick={toggleSidebar}
      aria-label={label}
      aria-expanded={shown}
      aria-controls="project-sidebar"
      title={`${label} (${keys})`}
      data-testid="sidebar-toggle"
    >
      <SidebarIcon />
    </button>
  )
}
