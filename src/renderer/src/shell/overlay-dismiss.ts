import { useEffect } from 'react'
import { closeMonitor, monitorOpen } from '../features/jobs'
import { foldPlan } from '../features/todo'
import type { Layout, PanelId } from '../app/layout-model'
import { dismissSidebar } from '../app/layout-store'

/** Puts away the side panels floating over the chat: the job monitor closes, the plan folds. */
export function dismissPanels(open: readonly PanelId[]): void {
  if (open.includes('jobs') && monitorOpen()) closeMonitor()
  if (open.includes('plan')) foldPlan()
}

/**
 * Escape puts away what lies over the chat, the topmost first: the sidebar shown over it, else
 * the side panels floating over it. Whatever took the key before (a popover, the find bar, the
 * @ finder, a modal dialog) keeps it.
 */
export function useOverlayEscape(layout: Layout): void {
  const sidebar = layout.sidebar === 'overlay'
  // As a string: the layout's list is a new array on every render, and the listener need not be.
  const open = layout.panels === 'overlay' ? layout.open.join(' ') : ''
  useEffect(() => {
    const panels = open.split(' ').filter((id): id is PanelId => id === 'plan' || id === 'jobs')
    if (!sidebar && panels.length === 0) return
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      if (document.querySelector('dialog:modal')) return
      event.preventDefault()
      if (sidebar) dismissSidebar()
      else dismissPanels(panels)
    }
    // On the document, bubbling: after the page's own handlers, which mark a key they took, and
    // before the window's, where Escape stops the running turn.
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [sidebar, open])
}
