// Tokens and cost as the rest of the window sees them: the chat header's meters, a session's
// totals line, and the Settings section for prices.
import { lazySection } from '../../ui/lazy-section'
export { HeaderMeters } from './header-meters'
export { SessionTotalsLine } from './session-totals-line'

// Its section of Settings loads with the Settings page, not with the window (ui/lazy-section.tsx).
export const PricesSection = lazySection(() =>
  import('./prices-section').then((module) => module.PricesSection)
)
