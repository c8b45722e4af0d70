import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { SkillOrigin, SkillView } from '../../shared/skills'
import { parseFrontMatter } from './front-matter'

/** A skill that loaded cleanly: its instructions and the folder its other files live in. */
export interface Skill {
  name: string
  description: string
  origin: SkillOrigin
  /** The SKILL.md file. */
  path: string
  /** The skill's folder, readable by the model through the path jail. */
  dir: string
  body: string
}

export interface SkillScan {
  /** Usable skills, sorted by name; the first found wins a name clash. */
  skills: Skill[]
  /** Every folder looked at, skipped ones with the reason. */
  views: SkillView[]
}

/** Folders holding skills, in the order they win a name clash: the project's, then the person's. */
export function skillRoots(
  workspace: string,
  userDir: string
): { dir: string; origin: SkillOrigin }[] {
  return [
    { dir: path.join(workspace, '.mecatl', 'skills'), origin: 'project' },
    { dir: path.join(workspace, '.claude', 'skills'), origin: 'project' },
    { dir: path.join(userDir, 'skills'), origin: 'user' }
  ]
}

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/**
 * Finds every `<root>/<folder>/SKILL.md`. A file with bad front matter, or without a name or a
 * description, is reported and skipped; nothing here throws for a file's content.
 */
export async function scanSkills(workspace: string, userDir: string): Promise<SkillScan> {
  const skills: Skill[] = []
  const views: SkillView[] = []
  for (const root of skillRoots(workspace, userDir)) {
    const entries = await readdir(root.dir, { withFileTypes: true }).catch(() => [])
    const folders = entries
      .filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((e) => e.name)
      .sort()
    for (const folder of folders) {
      const dir = path.join(root.dir, folder)
      const file = path.join(dir, 'SKILL.md')
      const source = await readFile(file, 'utf8').catch(() => null)
      if (source === null) continue
      const result = readSkill(source, folder)
      const view: SkillView = {
        name: result.ok ? result.name : folder,
        description: result.ok ? result.description : '',
        origin: root.origin,
        path: file,
        error: result.ok ? null : result.error
      }
      if (result.ok) {
        const earlier = skills.find((s) => s.name === result.name)
        if (earlier) {
          view.error = `another skill named "${result.name}" is found first (${earlier.path})`
        } else {
          skills.push({ ...result, origin: root.origin, path: file, dir })
        }
      }
      views.push(view)
    }
  }
  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { skills, views }
}

type ReadSkill =
  { ok: true; name: string; description: string; body: string } | { ok: false; error: string }

function readSkill(source: string, folder: string): ReadSkill {
  const parsed = parseFrontMatter(source)
  if (!parsed.ok) return parsed
  const { name, description } = parsed.data
  if (Object.keys(parsed.data).length === 0) {
    return {
      ok: false,
      error: 'SKILL.md has no front matter; start it with --- name: … description: … ---'
    }
  }
  if (name !== undefined && typeof name !== 'string') {
    return { ok: false, error: '`name` in the front matter must be text' }
  }
  const chosen = (name ?? folder).trim()
  if (!namePattern.test(chosen)) {
    return {
      ok: false,
      error: `the name "${chosen}" may hold only letters, digits, ".", "_" and "-" (it becomes /${chosen})`
    }
  }
  if (typeof description !== 'string' || !description.trim()) {
    return {
      ok: false,
      error: 'the front matter needs a `description` saying when to use the skill'
    }
  }
  return { ok: true, name: chosen, description: description.trim(), body: parsed.body.trim() }
}
