import { z } from 'zod'
import { sandboxViewSchema } from '../sandbox'
import { folderPath, type CallSpec } from './call-spec'

/** Where Shell's commands are confined, and what a confined command sees. */
export const calls = {
  /** Where Shell stands under the settings in force: confined (and how), not, or refused. */
  'sandbox.status': {
    input: z.object({}).strict(),
    output: z.object({
      state: z.enum(['confined', 'unconfined', 'refused', 'checking']),
      /** "confined (bubblewrap), network off", "not confined (…)", "refused: …". */
      text: z.string()
    })
  },
  /**
   * What a confined command sees under the settings in force, folder by folder, in `workspace`
   * (or in no project folder): for Settings → Permissions → Sandbox.
   */
  'sandbox.view': {
    input: z.object({ workspace: folderPath.optional() }).strict(),
    output: sandboxViewSchema
  }
} satisfies Record<string, CallSpec>

export const events = {} satisfies Record<string, z.ZodType>
