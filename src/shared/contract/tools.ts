import { z } from 'zod'
import { toolDescriptorSchema } from '../domain'
import { folderPath, type CallSpec } from './call-spec'

/** The tool catalog as the model would be offered it. */
export const calls = {
  'tools.list': {
    // With a workspace, its MCP servers' tools are listed too.
    input: z.object({ workspace: folderPath.optional() }).strict(),
    output: z.object({ tools: z.array(toolDescriptorSchema) })
  }
} satisfies Record<string, CallSpec>

export const events = {} satisfies Record<string, z.ZodType>
