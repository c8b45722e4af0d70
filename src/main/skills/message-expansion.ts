import type { Provenance } from '../../shared/provenance'
import { commandOf, expandCommand, loadCommands, type CommandPlaces } from './commands'
import { scanSkills } from './skills'

/** What the launch flags add to where skills and commands are found (`--skills-dir`…). */
export interface LaunchPlaces {
  /** `--skills-dir`: the operator's skills, which win every name clash. */
  operatorDirs?: readonly string[]
  /** `--no-commands`, `--commands-dir`. */
  commands?: CommandPlaces
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
