import { z } from 'zod'
import { folderPath, none, type CallSpec } from './call-spec'

export const settingsIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional()
})

/** A settings file with problems, and where the settings in force came from meanwhile. */
const settingsFileHealthSchema = z.object({
  scope: z.enum(['user', 'project']),
  path: z.string(),
  issues: z.array(settingsIssueSchema),
  source: z.enum(['file', 'defaults', 'last-valid', 'none'])
})

/** The settings file as the window edits it, and the health of every settings file in force. */
export const calls = {
  'settings.get': {
    input: none,
    output: z.object({
      path: z.string(),
      settings: z.unknown(),
      issues: z.array(settingsIssueSchema)
    })
  },
  'settings.save': {
    input: z.object({ settings: z.unknown() }).strict(),
    output: z.object({ saved: z.boolean(), issues: z.array(settingsIssueSchema) })
  },
  /** The settings files that apply in a folder (or the user's alone) that have problems. */
  'settings.status': {
    input: z.object({ workspace: folderPath.optional() }).strict(),
    output: z.object({ blocked: z.boolean(), files: z.array(settingsFileHealthSchema) })
  }
} satisfies Record<string, CallSpec>

export const events = {
  /** A settings file's problems changed: the user's (`workspace` null) or a project's. */
  'settings.status': z.object({ workspace: z.string().nullable() })
} satisfies Record<string, z.ZodType>
