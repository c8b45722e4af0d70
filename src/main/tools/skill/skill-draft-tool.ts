import path from 'node:path'
import { z } from 'zod'
import { provenanceWords, type Provenance } from '../../../shared/provenance'
import { openProjectDir, SkillFolderError } from '../../skills/project-dir'
import { nameTakenBy, SKILL_DRAFTS_DIR, skillFileText } from '../../skills/skill-drafts'
import { scanSkills, SKILL_NAME_PATTERN, type SkillPlaces } from '../../skills/skills'
import { writeFileAtomicIn } from '../../workspace/atomic-write'
import { inputString } from '../../../shared/tool-input'
import { defineTool, errorOutput, textOutput, type Tool } from '../tool'
import { plainPresentation } from '../tool-presentation'

export const SKILL_DRAFT_TOOL_NAME = 'SkillDraft'

/** Instructions longer than this are not one skill. */
export const MAX_DRAFT_INSTRUCTIONS = 32_000

const inputSchema = z.strictObject({
  name: z
    .string()
    .regex(
      SKILL_NAME_PATTERN,
      'a skill name is letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit'
    )
    .describe('Short kebab-case name, e.g. "release-notes"; once active it is also /<name>.'),
  description: z
    .string()
    .trim()
    .min(1)
    .max(400)
    .describe('One or two sentences: what the skill does and when to use it.'),
  instructions: z
    .string()
    .trim()
    .min(1)
    .max(MAX_DRAFT_INSTRUCTIONS)
    .describe('The procedure in Markdown, as you would want to be told it next time.')
})

/** What the receipt says of a draft written in a conversation that held untrusted input. */
function marked(provenance: Provenance): string {
  const from = provenanceWords(provenance)
  return from === null
    ? ''
    : `It is marked as ${from}, and stays so once activated: loading it counts as untrusted input.`
}

/** Where a draft of that name is saved, relative to the project folder. */
export function draftPath(name: string): string {
  return path.join(SKILL_DRAFTS_DIR, name, 'SKILL.md').split(path.sep).join('/')
}

/**
 * Saves what the model learned from a finished task as a skill draft in the project. A draft
 * is inactive: nothing loads it until a person activates it in Settings → Skills, and then only
 * its name, description and instructions become a (learned) skill. It writes in the project, so
 * it is a mutating tool and the gate treats it as it treats Write.
 */
export function skillDraftTool(places: SkillPlaces): Tool {
  return defineTool({
    name: SKILL_DRAFT_TOOL_NAME,
    description: [
      'Save what you learned from a task you have just finished as a skill draft: instructions',
      'for doing that kind of task again (steps, commands, pitfalls). The draft is saved inactive',
      `in the project (${draftPath('<name>')}); it becomes a skill only when a person reviews and`,
      'activates it in Settings → Skills, so you cannot load it yourself. Draft only procedures',
      'that worked and will recur; saving a draft of the same name again replaces it.'
    ].join(' '),
    inputSchema,
    readOnly: false,
    // It writes one new file in a folder of its own; an earlier draft of the name is replaced.
    capabilities: { privateData: false, untrustedInput: false, egress: 'none', destructive: true },
    source: 'builtin',
    // It writes its draft into the project folder.
    folderContent: false,
    needsFolder: true,
    defaultDecision: null,
    presentation: {
      ...plainPresentation(SKILL_DRAFT_TOOL_NAME, 'files'),
      sentence: (input) =>
        `Save a skill draft "${inputString(input, 'name') ?? 'a skill'}" in .mecatl/skill-drafts/ of the project. It is not a skill until you activate it in Settings → Skills.`
    },
    pathsWritten: (input) => [draftPath(input.name)],
    async call(input, ctx) {
      const { views } = await scanSkills(ctx.jail.root, places.userDir, places.operatorDirs)
      const taken = nameTakenBy(input.name, views)
      if (taken) return errorOutput(`Not saved: ${taken}.`)
      // Nobody vouched for a conversation that gave none: unknown, which counts as untrusted.
      const provenance: Provenance = ctx.provenance?.() ?? {
        trust: 'unknown',
        sessionId: ctx.sessionId,
        folder: ctx.jail.root
      }
      const text = skillFileText({
        name: input.name,
        description: input.description.replace(/\s+/g, ' '),
        body: input.instructions,
        provenance
      })
      let replaced: boolean
      try {
        const dir = await openProjectDir(
          ctx.jail.root,
          path.join(SKILL_DRAFTS_DIR, input.name),
          true
        )
        if (dir === null) return errorOutput(`Not saved: ${SKILL_DRAFTS_DIR} could not be created.`)
        try {
          replaced = (await dir.lstat('SKILL.md')) !== null
          await writeFileAtomicIn(dir, 'SKILL.md', text, null)
        } finally {
          await dir.close()
        }
      } catch (error) {
        if (error instanceof SkillFolderError) return errorOutput(`Not saved: ${error.message}.`)
        throw error
      }
      const learned = views.some((v) => v.origin === 'learned' && v.name === input.name)
      return textOutput(
        [
          `${replaced ? 'Replaced the' : 'Saved a'} skill draft at \`${draftPath(input.name)}\`.`,
          'It is not a skill yet: a person reviews it in Settings → Skills and activates or deletes it.',
          learned ? `Activating it replaces the learned skill "${input.name}".` : '',
          marked(provenance)
        ]
          .filter(Boolean)
          .join(' ')
      )
    }
  })
}
