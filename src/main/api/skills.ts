import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { loadCommands } from '../skills/commands'
import { loadInstructions } from '../skills/instructions'
import { activateDraft, deleteDraft, listDrafts } from '../skills/skill-drafts'
import { scanSkills } from '../skills/skills'
import { checkFolder } from '../workspace/check-folder'

/**
 * The calls behind the command palette, the skills list (with the drafts a person reviews) and
 * the instructions line.
 */
export function skillsApi({
  options,
  userDir,
  tools,
  settings
}: Pick<Services, 'options' | 'userDir' | 'tools' | 'settings'>): SliceHandlers<'skills'> {
  const operatorDirs = options.skillsDirs
  const places = { userDir, operatorDirs }
  return {
    'commands.list': async ({ workspace }) => {
      const folder = await checkFolder(workspace)
      const { skills } = await scanSkills(folder, userDir, operatorDirs)
      const set = await loadCommands(folder, userDir, skills, options.commands)
      return { commands: set.commands.map((c) => c.view), problems: set.problems }
    },
    'skills.list': async ({ workspace }) => {
      const folder = await checkFolder(workspace)
      const { views } = await scanSkills(folder, userDir, operatorDirs)
      return { skills: views, enabled: tools.enabled('skills', settings.snapshot()) }
    },
    // Operator and user skills count too: a draft never activates under one of their names.
    'skillDrafts.list': async ({ workspace }) => ({
      drafts: await listDrafts(await checkFolder(workspace), places)
    }),
    'skillDrafts.activate': async ({ workspace, name, digest }) =>
      activateDraft(await checkFolder(workspace), places, name, digest),
    'skillDrafts.delete': async ({ workspace, name, digest }) =>
      deleteDraft(await checkFolder(workspace), name, digest),
    'instructions.list': async ({ workspace }) => {
      const folder = await checkFolder(workspace)
      return { files: (await loadInstructions(folder, userDir)).files }
    }
  }
}
