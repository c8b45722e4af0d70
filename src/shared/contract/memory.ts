import { z } from 'zod'
import {
  memoryScopeSchema,
  memoryDetailSchema,
  memoryListItemSchema,
  memoryRevisionSchema
} from '../memory'
import { folderPath, type CallSpec } from './call-spec'

const memoryTarget = { scope: memoryScopeSchema, workspace: folderPath.optional() }

const memoryChange = z
  .object({ ...memoryTarget, name: z.string().min(1), expectedVersion: z.string().min(1) })
  .strict()

/** A memory with its history and its first revision (who created it, and when). */
const memoryInspection = memoryDetailSchema.extend({ origin: memoryRevisionSchema.nullable() })

/** The memory browser: searching, inspecting, forgetting and undoing. */
export const calls = {
  /**
   * The memory browser. Project scope needs `workspace`; the user scope ignores it. An empty
   * query lists every entry, forgotten ones too, most recent first; words search live ones.
   */
  'memory.search': {
    input: z
      .object({
        ...memoryTarget,
        query: z.string().max(500).default(''),
        limit: z.number().int().min(1).max(500).optional()
      })
      .strict(),
    output: z.object({ items: z.array(memoryListItemSchema) })
  },
  'memory.inspect': {
    input: z.object({ ...memoryTarget, name: z.string().min(1) }).strict(),
    output: memoryInspection
  },
  /** Forget and Undo follow the tools' rule: `expectedVersion` must be the current version. */
  'memory.forget': {
    input: memoryChange,
    output: memoryInspection
  },
  'memory.undo': {
    input: memoryChange,
    output: memoryInspection
  }
} satisfies Record<string, CallSpec>

export const events = {
  /** A memory changed (by a tool or in the browser); `workspace` is null for the user scope. */
  'memory.changed': z.object({
    scope: memoryScopeSchema,
    workspace: z.string().nullable(),
    name: z.string()
  })
} satisfies Record<string, z.ZodType>
