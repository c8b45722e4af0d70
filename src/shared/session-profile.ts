import { z } from 'zod'

/**
 * What a session may touch. `no-fs` has no file, shell or delegation-with-files tools at all:
 * for conversations that must not see or change the folder (MCP, web and memory tools stay).
 */
export const sessionProfileSchema = z.enum(['default', 'no-fs'])
export type SessionProfile = z.infer<typeof sessionProfileSchema>
