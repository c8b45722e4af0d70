import { scanSkills, type SkillPlaces } from '../../skills/skills'
import type { Tool } from '../tool'
import { skillDraftTool } from './skill-draft-tool'
import { skillTool } from './skill-tool'

/** The Skill family as the ToolSet takes it: its tools in general, and as made for a folder. */
export interface SkillFamily {
  /** Skill (with the general description) and SkillDraft: what stands for them with no folder. */
  tools: Tool[]
  /**
   * A folder's: Skill naming its skills, or no Skill at all where there are none (nothing to
   * load), and SkillDraft either way, since a draft is how the first skill can come about.
   */
  inFolder: (workspace: string) => Promise<Tool[]>
}

/** The skill tools for skills found in these places (and each project folder). */
export function skillFamily(places: SkillPlaces): SkillFamily {
  const draft = skillDraftTool(places)
  return {
    tools: [skillTool(places), draft],
    inFolder: async (workspace) => {
      const { skills } = await scanSkills(workspace, places.userDir, places.operatorDirs)
      return skills.length > 0 ? [skillTool(places, skills), draft] : [draft]
    }
  }
}
