import type { Tool } from '../tools/tool'
import type { RuleVerdict } from './rules'

/**
 * The default decision of the memory tools, below every rule: what the person gets with no rule
 * naming the tool. Keeping notes, reading them and taking a change back are how the model works
 * with its memory, so asking each time would only teach the person to click Allow; forgetting
 * hides an entry from every later session, so a person says yes to it. Any rule that names the
 * tool, of any scope, replaces this.
 */
const floor: Readonly<Record<string, 'allow' | 'prompt'>> = {
  Remember: 'allow',
  Recall: 'allow',
  SearchMemory: 'allow',
  InspectMemory: 'allow',
  UndoMemory: 'allow',
  ForgetMemory: 'prompt',
  RememberUser: 'allow',
  RecallUser: 'allow',
  SearchUserModel: 'allow',
  InspectUserMemory: 'allow',
  UndoUserMemory: 'allow',
  ForgetUserMemory: 'prompt'
}

/**
 * The floor's verdict for a built-in tool that no rule names, or null (the mode decides). Only
 * built-ins: an MCP tool that calls itself Remember is not the memory this floor is about.
 */
export function permissionFloor(tool: Tool): RuleVerdict | null {
  if (tool.source !== 'builtin' || !Object.hasOwn(floor, tool.name)) return null
  const decision = floor[tool.name] ?? null
  if (decision === 'allow') {
    return { decision, reason: `${tool.name} is allowed by default`, floor: true }
  }
  return {
    decision: 'prompt',
    reason: `${tool.name} asks a person by default; a rule allowing ${tool.name} lets it run without asking`,
    floor: true
  }
}
