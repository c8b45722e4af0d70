import { z } from 'zod'
import { untrustedSkillNote } from '../../skills/skill-provenance'
import { scanSkills, type Skill, type SkillPlaces } from '../../skills/skills'
import {
  defineTool,
  errorOutput,
  markedUntrusted,
  noCapabilities,
  textOutput,
  type Tool,
  type ToolOutput
} from '../tool'
import { inputString } from '../../../shared/tool-input'
import { plainPresentation } from '../tool-presentation'

export const SKILL_TOOL_NAME = 'Skill'

/** At most this many skills are named in the description; the rest are a call away. */
export const MAX_LISTED_SKILLS = 100
/** A skill's description is cut to this many characters in the tool's description. */
export const MAX_LISTED_DESCRIPTION = 240

const inputSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .optional()
      .describe('The skill to load; leave out to list the skills there are')
  })
  .strict()

const basics =
  "Skills are instructions for particular tasks, kept in the project or by the person. Call with a name to load that skill's full instructions before doing the task it describes; call with no name to list them again. Files a skill mentions are read with Read, by the path given."

/**
 * What the model is told of the Skill tool: with the skills of a folder, each one's name and
 * description on a line of its own, sorted by name, so the model knows what exists before it
 * calls and the text (the front of the cached prompt) is the same while the skills are. A skill
 * written in a conversation that held untrusted input is not named: the description reaches
 * every turn without a call, so its words would enter the conversation unmarked.
 */
export function skillToolDescription(skills?: readonly Skill[]): string {
  if (skills === undefined) return basics
  const sorted = skills
    .filter((skill) => !skill.provenance)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const lines = sorted
    .slice(0, MAX_LISTED_SKILLS)
    .map((skill) => `- ${skill.name}: ${oneLine(skill.description, MAX_LISTED_DESCRIPTION)}`)
  const more = sorted.length - lines.length
  if (more > 0) lines.push(`- … and ${more} more: call Skill with no name for the whole list`)
  const hidden = skills.length - sorted.length
  if (hidden > 0) {
    lines.push(
      `- ${hidden} more written in conversations that held untrusted input, not named here: calling Skill with no name lists them, and counts as untrusted input`
    )
  }
  return `${basics}\n\nThe skills here:\n${lines.join('\n')}`
}

/**
 * The one tool for skills: with a name it returns that skill's full instructions and opens its
 * folder for reading (a learned skill's stays closed: activation gives it nothing but its text);
 * without, it lists the catalog. `listed` is the folder's skills as the turn began, named in the
 * description; without it the description is the general one (the tool list of no folder).
 */
export function skillTool(places: SkillPlaces, listed?: readonly Skill[]): Tool {
  return defineTool({
    name: SKILL_TOOL_NAME,
    description: skillToolDescription(listed),
    inputSchema,
    readOnly: true,
    capabilities: noCapabilities,
    source: 'builtin',
    // A skill kept in the folder is the folder's words; a session without one still has the rest.
    folderContent: true,
    needsFolder: false,
    defaultDecision: null,
    presentation: {
      ...plainPresentation(SKILL_TOOL_NAME, 'nothing'),
      summary: (input) => inputString(input, 'name') ?? 'list the skills'
    },
    call: async (input, ctx) => {
      const { skills, views } = await scanSkills(ctx.jail.root, places.userDir, places.operatorDirs)
      if (input.name === undefined) {
        if (skills.length === 0) {
          return textOutput(
            "There are no skills here. Skills are folders with a SKILL.md in .mecatl/skills/ or .claude/skills/ of the project, or in the person's skills folder."
          )
        }
        const lines = skills.map(
          (s) => `- ${s.name}: ${s.description}${s.provenance ? ' (untrusted)' : ''}`
        )
        return markedUntrusted(
          textOutput(
            `${skills.length} skill${skills.length === 1 ? '' : 's'} (load one with {"name": "…"}):\n${lines.join('\n')}`
          ),
          skills.some((s) => s.provenance !== undefined)
        )
      }
      const skill = skills.find((s) => s.name === input.name)
      if (!skill) {
        const broken = views.find((v) => v.name === input.name && v.error)
        if (broken)
          return errorOutput(`The skill "${input.name}" cannot be loaded: ${broken.error}`)
        const names = skills.map((s) => s.name).join(', ') || 'none'
        return errorOutput(`There is no skill named "${input.name}". Skills here: ${names}.`)
      }
      const note = untrustedSkillNote(skill.name, skill.provenance)
      const noted = (text: string): ToolOutput =>
        markedUntrusted(textOutput(note ? `${note}\n${text}` : text), note !== null)
      if (skill.origin === 'learned') {
        ctx.skills?.load(skill.name, null, skill.body)
        return noted(`<skill name="${skill.name}" learned="true">\n${skill.body}\n</skill>`)
      }
      ctx.skills?.load(skill.name, skill.dir, skill.body)
      const where = ctx.jail.display(skill.dir)
      return noted(
        `<skill name="${skill.name}" folder="${where}">\n${skill.body}\n</skill>\nThe skill's other files are in ${where}; read them with Read when the instructions call for them.`
      )
    }
  })
}

/** Whitespace runs (newlines included) made single spaces, cut at `max` characters. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat)
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`
}
