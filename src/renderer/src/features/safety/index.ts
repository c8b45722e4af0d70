// What the window shows about safety, as the rest of it sees it: planning mode and its toggle,
// the taint badge, and the chips and labels a tool call's card and its children wear.
export { CapabilityChips } from './capability-chips'
export { chipNews } from './chip-news'
export { PlanningBanner, PlanningToggle } from './planning-toggle'
export { togglePlanning } from './planning'
export { deniedBadge, refusalLabel, type CapabilityChip } from './safety-labels'
export { TaintBadge } from './taint-badge'
