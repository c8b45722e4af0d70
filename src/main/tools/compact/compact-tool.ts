import { z } from 'zod'
import { errorOutput, folderlessReadOnlyTool, noCapabilities, textOutput, type Tool } from '../tool'
import { plainPresentation } from '../tool-presentation'

export const COMPACT_TOOL_NAME = 'Compact'

/**
 * Lets the model ask for its conversation to be compacted, for instance after finishing one part
 * of a long task. The compaction itself runs in the turn loop once this step's calls are done, so
 * the result of every call of the step is still there to be summarised. It changes only the
 * session's own history, so it is read-only with no capabilities.
 */
export const compactTool: Tool = folderlessReadOnlyTool({
  name: COMPACT_TOOL_NAME,
  description: [
    'Compact the conversation: older messages are replaced by a faithful summary, keeping the',
    "person's latest message and everything after it, your plan (Todo) and loaded skills. Use it",
    'when a long task has moved on and the earlier detail is no longer needed. It runs after the',
    'other calls of this step.'
  ].join(' '),
  inputSchema: z.strictObject({}),
  capabilities: noCapabilities,
  presentation: plainPresentation(COMPACT_TOOL_NAME, 'nothing'),
  async call(_input, ctx) {
    if (!ctx.requestCompaction) {
      return errorOutput('there is no conversation here to compact (a single `call`)')
    }
    ctx.requestCompaction()
    return textOutput(
      'Compaction requested: the older messages will be summarised once this step is done.'
    )
  }
})
