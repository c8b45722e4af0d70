import type { Tool } from '../tools/tool'
import type { RuleVerdict } from './rules'

/**
 * The floor's verdict for a tool that no rule names: its declared `defaultDecision`, or null
 * (the mode decides). The memory tools say why theirs (tools/memory/memory-tools.ts).
 */
export function permissionFloor(tool: Tool): RuleVerdict | null {
  const decision = tool.defaultDecision
  if (decision === null) return null
  if (decision === 'allow') {
    return { decision, reason: `${tool.name} is allowed by default`, floor: true }
  }
  return {
    decision: 'prompt',
    reason: `${tool.name} asks a person by default; a rule allowing ${tool.name} lets it run without asking`,
    floor: true
  }
}
