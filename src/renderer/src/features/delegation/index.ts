// Delegation as the rest of the window sees it: the view inside a Delegate call's card.
export { DelegationView } from './delegation-view'
