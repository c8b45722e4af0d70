import type { Handlers } from '../../shared/contract/handlers'
import { expandCommand, loadCommands } from './commands'
import { loadInstructions } from './instructions'
import { scanSkills } from './skills'

type SkillCalls = Pick<Handlers, 'commands.list' | 'skills.list' | 'instructions.list'>

export interface SkillHandlerDeps {
  userDir: string
  /** Whether the Skill tool is in the catalog (`--no-skills` and the setting remove it). */
  skillsEnabled: () => Promise<boolean>
  checkFolder: (requested: string) => Promise<string>
}

/** The calls behind the command palette, the skills list and the instructions line. */
export function skillHandlers(deps: SkillHandlerDeps): SkillCalls {
  return {
    'commands.list': async ({ workspace }) => {
      const folder = await deps.checkFolder(workspace)
      const { skills } = await scanSkills(folder, deps.userDir)
      const set = await loadCommands(folder, deps.userDir, skills)
      return { commands: set.commands.map((c) => c.view), problems: set.problems }
    },
    'skills.list': async ({ workspace }) => {
      const folder = await deps.checkFolder(workspace)
      const { views } = await scanSkills(folder, deps.userDir)
      return { skills: views, enabled: await deps.skillsEnabled() }
    },
    'instructions.list': async ({ workspace }) => {
      const folder = await deps.checkFolder(workspace)
      return { files: (await loadInstructions(folder, deps.userDir)).files }
    }
  }
}

/** A message as it will be sent: a `/command args` of a command file or skill expanded. */
export async function expandMessage(
  workspace: string,
  userDir: string,
  text: string
): Promise<string> {
  if (!text.trimStart().startsWith('/')) return text
  const { skills } = await scanSkills(workspace, userDir)
  const { commands } = await loadCommands(workspace, userDir, skills)
  return expandCommand(text, commands)
}
