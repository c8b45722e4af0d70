import { z } from 'zod'

/** One call's schemas: what it takes and what it answers. */
export interface CallSpec {
  input: z.ZodType
  output: z.ZodType
}

// Input shapes many slices share.
export const none = z.object({}).strict()
export const sessionRef = z.object({ sessionId: z.string().min(1) }).strict()
export const folderPath = z.string().min(1, 'give the path of a folder')
