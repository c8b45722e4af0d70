// Notifications as the rest of the window sees them: the dot on a waiting session, the Settings
// section, and the window-level signals (title dot, desktop notices).
import { lazySection } from '../../ui/lazy-section'
export { ApprovalDot } from './approval-dot'
export { WindowSignals } from './window-signals'

// Its section of Settings loads with the Settings page, not with the window (ui/lazy-section.tsx).
export const NotificationsSection = lazySection(() =>
  import('./notifications-section').then((module) => module.NotificationsSection)
)
