// @-mentions as the rest of the window sees them: the finder the composer uses, and the MCP
// resources it offers (the attach button lists the same).
export { resourceChoices, resourceRequest } from './resource-mention'
export { useMentionFinder } from './use-mention-finder'
