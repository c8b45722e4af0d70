/**
 * Where the window's columns go for a window width: the sidebar beside the chat, over it or
 * hidden, and the side panels (the plan, the job monitor) beside the chat, sharing one tabbed
 * column, or floating over the chat's edge. The one rule: the chat column keeps CHAT_MIN_WIDTH.
 */

/** The narrowest the conversation may get: a readable line and the header on one row. */
export const CHAT_MIN_WIDTH = 560
/** Matches --sidebar-width in base.css. */
export const SIDEBAR_WIDTH = 248
/** Below this window width the sidebar hides unless the person asked for it. */
export const AUTO_COLLAPSE_WIDTH = 960
/** Matches .todo-panel and .todo-rail in todo.css. */
export const PLAN_WIDTH = 272
export const PLAN_RAIL_WIDTH = 44

/** The job monitor's width, as jobs.css has it: clamp(360px, 34vw, 560px). */
export function jobsWidth(windowWidth: number): number {
  return Math.min(560, Math.max(360, Math.round(windowWidth * 0.34)))
}

/** What the person chose for the sidebar: nothing yet (the width decides), shown, or hidden. */
export type SidebarChoice = 'auto' | 'shown' | 'hidden'
export type SidebarPlace = 'beside' | 'overlay' | 'hidden'
/** beside: each open panel its own column; tabs: one column, one panel at a time; overlay: that
 * column floats over the chat's right edge. */
export type PanelPlace = 'beside' | 'tabs' | 'overlay'
export type PanelId = 'plan' | 'jobs'

export interface LayoutInput {
  width: number
  sidebar: SidebarChoice
  /** The plan: none made, folded to its rail, or open. */
  plan: 'none' | 'rail' | 'open'
  jobs: boolean
}

export interface Layout {
  sidebar: SidebarPlace
  panels: PanelPlace
  /** The panels that are open (the folded plan's rail is not: it always sits beside). */
  open: PanelId[]
  /** The width of the shared column in tabs and overlay; 0 when the panels are beside. */
  dockWidth: number
}

/** Whether the sidebar shows for a choice at a width (what the toggle button reports). */
export function sidebarShown(choice: SidebarChoice, width: number): boolean {
  return choice === 'shown' || (choice === 'auto' && width >= AUTO_COLLAPSE_WIDTH)
}

/** The choice after the person toggles: the opposite of what they see now. */
export function toggledSidebar(choice: SidebarChoice, width: number): SidebarChoice {
  return sidebarShown(choice, width) ? 'hidden' : 'shown'
}

/**
 * Whether the plan, open, would have to float over the chat. A plan the model has just made
 * starts folded to its rail there: it would otherwise cover the reply as it streams in.
 */
export function planWouldFloat(input: LayoutInput): boolean {
  return layoutFor({ ...input, plan: 'open' }).panels === 'overlay'
}

/** The columns for a window width, what is open, and the person's sidebar choice. */
export function layoutFor(input: LayoutInput): Layout {
  const rail = input.plan === 'rail' ? PLAN_RAIL_WIDTH : 0
  let sidebar: SidebarPlace = 'hidden'
  if (sidebarShown(input.sidebar, input.width)) {
    // Asked for in a window too narrow to keep the chat's width: over the chat, not beside it.
    sidebar = input.width - SIDEBAR_WIDTH - rail >= CHAT_MIN_WIDTH ? 'beside' : 'overlay'
  }
  const room = input.width - (sidebar === 'beside' ? SIDEBAR_WIDTH : 0) - rail - CHAT_MIN_WIDTH
  const widths: Record<PanelId, number> = { plan: PLAN_WIDTH, jobs: jobsWidth(input.width) }
  const open: PanelId[] = []
  if (input.plan === 'open') open.push('plan')
  if (input.jobs) open.push('jobs')
  const sum = open.reduce((total, id) => total + widths[id], 0)
  const widest = Math.max(0, ...open.map((id) => widths[id]))
  if (sum <= room) return { sidebar, panels: 'beside', open, dockWidth: 0 }
  if (widest <= room) return { sidebar, panels: 'tabs', open, dockWidth: widest }
  // Over the chat, leaving a strip of it uncovered so it is plain the chat is still there.
  const overlay = Math.min(widest, input.width - rail - 48)
  return { sidebar, panels: 'overlay', open, dockWidth: Math.max(overlay, 0) }
}
