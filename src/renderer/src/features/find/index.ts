// Find in the conversation as the rest of the window sees it: the bar, the actions that open it
// or land on a search hit, what it searches for, and the matching other features mark hits with.
export { FindBar } from './find-bar'
export { findInText } from './find-match'
export { landOnHit, openFind, useOpenFindQuery } from './find-store'
export { useFindReveal } from './use-find-reveal'
