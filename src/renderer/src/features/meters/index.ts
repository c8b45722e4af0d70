// Tokens and cost as the rest of the window sees them: the chat header's meters, a session's
// totals line, and the Settings section for prices.
export { HeaderMeters } from './header-meters'
export { PricesSection } from './prices-section'
export { SessionTotalsLine } from './session-totals-line'
