// Notifications as the rest of the window sees them: the dot on a waiting session, the Settings
// section, and the window-level signals (title dot, desktop notices).
export { ApprovalDot } from './approval-dot'
export { NotificationsSection } from './notifications-section'
export { WindowSignals } from './window-signals'
