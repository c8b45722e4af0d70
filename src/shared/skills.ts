import { z } from 'zod'
import { provenanceSchema } from './provenance'

/**
 * Where a skill or command file was found, in the order a name clash is won: a folder the
 * operator named at launch, the project folder, the person's own folder, then a learned skill (a
 * SkillDraft a person activated), which never wins a clash.
 */
export const skillOriginSchema = z.enum(['operator', 'project', 'user', 'learned'])
export type SkillOrigin = z.infer<typeof skillOriginSchema>

/** One skill folder as the settings screen lists it; `error` is set when it was skipped. */
export const skillViewSchema = z.object({
  /** The front matter's `name`, or the folder's name when the file could not be read. */
  name: z.string(),
  description: z.string(),
  origin: skillOriginSchema,
  /** The SKILL.md file. */
  path: z.string(),
  error: z.string().nullable(),
  /** Set when it was written in a conversation that held untrusted input: loading it is such. */
  provenance: provenanceSchema.optional()
})
export type SkillView = z.infer<typeof skillViewSchema>

/** A skill the model saved with SkillDraft, waiting in the project for a person to review it. */
export const skillDraftViewSchema = z.object({
  /** Its folder's name under `.mecatl/skill-drafts/`: the name it would be activated as. */
  name: z.string(),
  description: z.string(),
  /** The SKILL.md exactly as it is on disk, for the person to read before activating it. */
  text: z.string(),
  path: z.string(),
  /** Of `text`: activation and deletion act only on the text the person was shown. */
  digest: z.string(),
  /** Front-matter keys activation drops (only `name` and `description` are kept). */
  dropped: z.array(z.string()),
  /** Why it cannot be activated as it stands (malformed, or its name is taken); null if it can. */
  problem: z.string().nullable(),
  /** Activating it replaces the learned skill of the same name. */
  replaces: z.boolean(),
  /** Set when SkillDraft wrote it in a conversation that held untrusted input; activation keeps it. */
  provenance: provenanceSchema.optional()
})
export type SkillDraftView = z.infer<typeof skillDraftViewSchema>

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
