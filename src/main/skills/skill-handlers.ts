import type { Handlers } from '../../shared/contract/handlers'
import type { Provenance } from '../../shared/provenance'
import { commandOf, expandCommand, loadCommands, type CommandPlaces } from './commands'
import { loadInstructions } from './instructions'
import { activateDraft, deleteDraft, listDrafts } from './skill-drafts'
import { scanSkills } from './skills'

type SkillCalls = Pick<
  Handlers,
  | 'commands.list'
  | 'skills.list'
  | 'instructions.list'
  | 'skillDrafts.list'
  | 'skillDrafts.activate'
  | 'skillDrafts.delete'
>

/** What the launch flags add to where skills and commands are found (`--skills-dir`…). */
export interface LaunchPlaces {
  /** `--skills-dir`: the operator's skills, which win every name clash. */
  operatorDirs?: readonly string[]
  /** `--no-commands`, `--commands-dir`. */
  commands?: CommandPlaces
}

export interface SkillHandlerDeps extends LaunchPlaces {
  userDir: string
  /** Whether the Skill tool is in the catalog (`--no-skills` and the setting remove it). */
  skillsEnabled: () => Promise<boolean>
  checkFolder: (requested: string) => Promise<string>
}

/**
 * The calls behind the command palette, the skills list (with the drafts a person reviews) and
 * the instructions line.
 */
export function skillHandlers(deps: SkillHandlerDeps): SkillCalls {
  const places = { userDir: deps.userDir, operatorDirs: deps.operatorDirs }
  return {
    'commands.list': async ({ workspace }) => {
      const folder = await deps.checkFolder(workspace)
      const { skills } = await scanSkills(folder, deps.userDir, deps.operatorDirs)
      const set = await loadCommands(folder, deps.userDir, skills, deps.commands)
      return { commands: set.commands.map((c) => c.view), problems: set.problems }
    },
    'skills.list': async ({ workspace }) => {
      const folder = await deps.checkFolder(workspace)
      const { views } = await scanSkills(folder, deps.userDir, deps.operatorDirs)
      return { skills: views, enabled: await deps.skillsEnabled() }
    },
    // Operator and user skills count too: a draft never activates under one of their names.
    'skillDrafts.list': async ({ workspace }) => ({
      drafts: await listDrafts(await deps.checkFolder(workspace), places)
    }),
    'skillDrafts.activate': async ({ workspace, name, digest }) =>
      activateDraft(await deps.checkFolder(workspace), places, name, digest),
    'skillDrafts.delete': async ({ workspace, name, digest }) =>
      deleteDraft(await deps.checkFolder(workspace), name, digest),
    'instructions.list': async ({ workspace }) => {
      const folder = await deps.checkFolder(workspace)
      return { files: (await loadInstructions(folder, deps.userDir)).files }
    }
  }
}

/**
 * A message as it will be sent, and where its words came from when that makes it untrusted
 * input: a `/skill` written in a conversation that held some (see skill-provenance.ts).
 */
export interface ExpandedMessage {
  text: string
  provenance: Provenance | null
}

/** A message as it will be sent: a `/command args` of a command file or skill expanded. */
export async function expandMessage(
  workspace: string,
  userDir: string,
  text: string,
  launch: LaunchPlaces = {}
): Promise<ExpandedMessage> {
  if (!text.trimStart().startsWith('/')) return { text, provenance: null }
  const { skills } = await scanSkills(workspace, userDir, launch.operatorDirs)
  const { commands } = await loadCommands(workspace, userDir, skills, launch.commands)
  const entry = commandOf(text, commands)
  return { text: expandCommand(text, commands), provenance: entry?.provenance ?? null }
}
