import { z } from 'zod'
import { scanSkills } from '../../skills/skills'
import { defineTool, errorOutput, noCapabilities, textOutput, type Tool } from '../tool'

export const SKILL_TOOL_NAME = 'Skill'

const inputSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .optional()
      .describe('The skill to load; leave out to list the skills there are')
  })
  .strict()

/**
 * The one tool for skills: without a name it lists the catalog (names and descriptions only, so
 * the prompt stays small); with a name it returns that skill's full instructions and opens its
 * folder for reading.
 */
export function skillTool(options: { userDir: string }): Tool {
  return defineTool({
    name: SKILL_TOOL_NAME,
    description:
      "Skills are instructions for particular tasks, kept in the project or by the person. Call with no name to list them (name and when to use it); call with a name to load that skill's full instructions before doing the task it describes. Files a skill mentions are read with Read, by the path given.",
    inputSchema,
    readOnly: true,
    capabilities: noCapabilities,
    source: 'builtin',
    call: async (input, ctx) => {
      const { skills, views } = await scanSkills(ctx.jail.root, options.userDir)
      if (input.name === undefined) {
        if (skills.length === 0) {
          return textOutput(
            "There are no skills here. Skills are folders with a SKILL.md in .mecatl/skills/ or .claude/skills/ of the project, or in the person's skills folder."
          )
        }
        const lines = skills.map((s) => `- ${s.name}: ${s.description}`)
        return textOutput(
          `${skills.length} skill${skills.length === 1 ? '' : 's'} (load one with {"name": "…"}):\n${lines.join('\n')}`
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
      ctx.skills?.load(skill.name, skill.dir, skill.body)
      const where = ctx.jail.display(skill.dir)
      return textOutput(
        `<skill name="${skill.name}" folder="${where}">\n${skill.body}\n</skill>\nThe skill's other files are in ${where}; read them with Read when the instructions call for them.`
      )
    }
  })
}
