import { z } from 'zod'

/** Where a skill or command file was found: the project folder or the person's own folder. */
export const skillOriginSchema = z.enum(['project', 'user'])
export type SkillOrigin = z.infer<typeof skillOriginSchema>

/** One skill folder as the settings screen lists it; `error` is set when it was skipped. */
export const skillViewSchema = z.object({
  /** The front matter's `name`, or the folder's name when the file could not be read. */
  name: z.string(),
  description: z.string(),
  origin: skillOriginSchema,
  /** The SKILL.md file. */
  path: z.string(),
  error: z.string().nullable()
})
export type SkillView = z.infer<typeof skillViewSchema>

/** A slash command the chat input offers. */
export const commandViewSchema = z.object({
  /** Without the slash. */
  name: z.string(),
  description: z.string(),
  kind: z.enum(['builtin', 'command', 'skill']),
  origin: skillOriginSchema.nullable(),
  /** The file it expands from; null for a built-in. */
  path: z.string().nullable()
})
export type CommandView = z.infer<typeof commandViewSchema>

/** An instructions file read into the system prompt (AGENTS.md, CLAUDE.md). */
export const instructionFileSchema = z.object({
  label: z.string(),
  path: z.string(),
  origin: skillOriginSchema
})
export type InstructionFile = z.infer<typeof instructionFileSchema>

/** The model asking the person something (AskUser); `options` empty means a free answer. */
export const questionSchema = z.object({
  questionId: z.string(),
  sessionId: z.string(),
  callId: z.string(),
  question: z.string(),
  options: z.array(z.string())
})
export type Question = z.infer<typeof questionSchema>
