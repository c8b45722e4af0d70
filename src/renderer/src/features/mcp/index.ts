// MCP servers as the rest of the window sees them: the prompts they offer the chat's palette,
// what a project window shows of them (trust, sign-in, elicitation), their Settings section, the
// status others read, and the steps the Settings Save bar takes.
import { lazySection } from '../../ui/lazy-section'
export { ElicitationDialog } from './elicitation-dialog'
export { showServerIssues } from './mcp-draft'
export { McpSignInNotice } from './mcp-sign-in-notice'
export { discardServerForm, loadMcpStatus, reloadAfterSave } from './mcp-store'
export { McpTrustPrompt } from './mcp-trust-prompt'
export { usePromptPalette } from './prompt-palette'
export { useMcpError, useMcpStatus } from './use-mcp-status'

// Its section of Settings loads with the Settings page, not with the window (ui/lazy-section.tsx).
export const McpSection = lazySection(() =>
  import('./mcp-section').then((module) => module.McpSection)
)
