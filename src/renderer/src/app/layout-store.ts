import { useEffect, useState } from 'react'
import { create } from 'zustand'
import { sidebarShown, toggledSidebar, type PanelId, type SidebarChoice } from './layout-model'

const CHOICE_KEY = 'mecatl.sidebar'

function readChoice(): SidebarChoice {
  try {
    const saved = window.localStorage.getItem(CHOICE_KEY)
    return saved === 'shown' || saved === 'hidden' ? saved : 'auto'
  } catch {
    // Storage refused (a locked-down profile): the width decides, as on a first start.
    return 'auto'
  }
}

interface LayoutState {
  /** What the person chose for the sidebar; kept across reloads. */
  sidebar: SidebarChoice
  /** The panel in front when the plan and the jobs share one column. */
  front: PanelId
}

/** The window's layout choices (see layout-model for what they lead to). */
export const useLayout = create<LayoutState>(() => ({ sidebar: readChoice(), front: 'plan' }))

/** Shows the sidebar if it is hidden and hides it if it shows (the button and Ctrl/Cmd+B). */
export function toggleSidebar(): void {
  const next = toggledSidebar(useLayout.getState().sidebar, window.innerWidth)
  useLayout.setState({ sidebar: next })
  try {
    window.localStorage.setItem(CHOICE_KEY, next)
  } catch {
    // Not kept past this page; the toggle still works.
  }
}

/** Hides a sidebar shown over the chat (a click beside it, a session picked). */
export function dismissSidebar(): void {
  // Back to letting the width decide where that hides it, so a wider window brings it back.
  useLayout.setState({ sidebar: sidebarShown('auto', window.innerWidth) ? 'hidden' : 'auto' })
}

export function bringPanelToFront(id: PanelId): void {
  useLayout.setState({ front: id })
}

/** The window's inner width, kept current as it is resized. */
export function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth)
  useEffect(() => {
    const onResize = (): void => setWidth(window.innerWidth)
    window.addEventListener('resize', onResize)
    return () => window.removeEventListener('resize', onResize)
  }, [])
  return width
}

/** Whether the sidebar shows now, for the toggle's label. */
export function useSidebarShown(): boolean {
  const choice = useLayout((s) => s.sidebar)
  return sidebarShown(choice, useWindowWidth())
}
