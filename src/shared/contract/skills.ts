import { z } from 'zod'
import {
  commandViewSchema,
  instructionFileSchema,
  skillDraftViewSchema,
  skillViewSchema
} from '../skills'
import { folderPath, type CallSpec } from './call-spec'

/** A skill draft of a project, as the person was shown it. */
const skillDraftRef = z
  .object({
    workspace: folderPath,
    name: z.string().min(1).max(200),
    digest: z.string().regex(/^[0-9a-f]{64}$/, 'give the digest the draft was listed with')
  })
  .strict()

const skillDraftResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), path: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() })
])

/** Slash commands, skills and their drafts, and the instruction files of a project. */
export const calls = {
  /** The slash commands of a folder: built-ins, command files and skills, with name clashes. */
  'commands.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ commands: z.array(commandViewSchema), problems: z.array(z.string()) })
  },
  /** Every skill folder found for a project, skipped ones with the reason. */
  'skills.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ skills: z.array(skillViewSchema), enabled: z.boolean() })
  },
  /** A project's SkillDraft drafts, each with its text and whether it can be activated. */
  'skillDrafts.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ drafts: z.array(skillDraftViewSchema) })
  },
  /**
   * Settings → Skills' Activate: the draft, as it was shown (`digest`), becomes a learned skill
   * with only its name, description and instructions; refused in words when its name is taken.
   */
  'skillDrafts.activate': {
    input: skillDraftRef,
    output: skillDraftResult
  },
  /** Settings → Skills' Delete: removes the draft as it was shown (`digest`). */
  'skillDrafts.delete': {
    input: skillDraftRef,
    output: skillDraftResult
  },
  /** The instruction files (AGENTS.md, CLAUDE.md) read into a project's system prompt. */
  'instructions.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ files: z.array(instructionFileSchema) })
  }
} satisfies Record<string, CallSpec>

export const events = {} satisfies Record<string, z.ZodType>
