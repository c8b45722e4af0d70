import { constants } from 'node:fs'
import { open, readdir } from 'node:fs/promises'
import path from 'node:path'
import type { Provenance } from '../../shared/provenance'
import type { SkillOrigin, SkillView } from '../../shared/skills'
import { parseFrontMatter } from './front-matter'
import { provenanceOfSkill } from './skill-provenance'

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
  /** Set when it was written in a conversation that held untrusted input (see skill-provenance). */
  provenance?: Provenance
}

/** Where a skill is looked for: the person's folder and the folders the operator named. */
export interface SkillPlaces {
  userDir: string
  /** `--skills-dir`: skills of the operator's, which win every name clash. */
  operatorDirs?: readonly string[]
}

export interface SkillScan {
  /** Usable skills, sorted by name; the first found wins a name clash. */
  skills: Skill[]
  /** Every folder looked at, skipped ones with the reason. */
  views: SkillView[]
}

/** Where a person's activated skill drafts live in a project (see skill-drafts.ts). */
export const LEARNED_SKILLS_DIR = path.join('.mecatl', 'learned-skills')

/**
 * Folders holding skills, in the order they win a name clash: the operator's (`--skills-dir`),
 * the project's, the person's, and last the learned skills a person activated from drafts, so a
 * learned skill never shadows any other.
 */
export function skillRoots(
  workspace: string,
  userDir: string,
  operatorDirs: readonly string[] = []
): { dir: string; origin: SkillOrigin }[] {
  return [
    ...operatorDirs.map((dir) => ({ dir: path.resolve(dir), origin: 'operator' as const })),
    { dir: path.join(workspace, '.mecatl', 'skills'), origin: 'project' },
    { dir: path.join(workspace, '.claude', 'skills'), origin: 'project' },
    { dir: path.join(userDir, 'skills'), origin: 'user' },
    { dir: path.join(workspace, LEARNED_SKILLS_DIR), origin: 'learned' }
  ]
}

/** What a skill may be called: it becomes `/<name>` and a folder's name. */
export const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/**
 * Finds every `<root>/<folder>/SKILL.md`. A file with bad front matter, or without a name or a
 * description, is reported and skipped; nothing here throws for a file's content.
 */
export async function scanSkills(
  workspace: string,
  userDir: string,
  operatorDirs: readonly string[] = []
): Promise<SkillScan> {
  const skills: Skill[] = []
  const views: SkillView[] = []
  for (const root of skillRoots(workspace, userDir, operatorDirs)) {
    const entries = await readdir(root.dir, { withFileTypes: true }).catch(() => [])
    // A learned skill is only ever a folder activation made: never a link to somewhere else.
    const learned = root.origin === 'learned'
    const folders = entries
      .filter((e) => e.isDirectory() || (!learned && e.isSymbolicLink()))
      .map((e) => e.name)
      .sort()
    for (const folder of folders) {
      const dir = path.join(root.dir, folder)
      const file = path.join(dir, 'SKILL.md')
      const source = await readSkillFile(file, learned)
      if (source === null) continue
      const result = typeof source === 'string' ? readSkill(source, folder) : source
      const view: SkillView = {
        name: result.ok ? result.name : folder,
        description: result.ok ? result.description : '',
        origin: root.origin,
        path: file,
        error: result.ok ? null : result.error,
        ...(result.ok && result.provenance ? { provenance: result.provenance } : {})
      }
      if (result.ok) {
        // Told apart by case alone, a learned skill could still pass for another on a
        // case-insensitive disk or to a reader: it loses those clashes too.
        const same = (s: Skill): boolean =>
          learned ? s.name.toLowerCase() === result.name.toLowerCase() : s.name === result.name
        const earlier = skills.find(same)
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

/** Larger than any instructions a person writes; read every turn, so bounded. */
export const MAX_SKILL_BYTES = 256 * 1024

/**
 * A SKILL.md's text; null when there is none, an error when it is too large (or, with `noLinks`,
 * reached through a link).
 */
async function readSkillFile(
  file: string,
  noLinks: boolean
): Promise<string | { ok: false; error: string } | null> {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (noLinks ? constants.O_NOFOLLOW : 0)
  const handle = await open(file, flags).catch((error: unknown) => {
    if (noLinks && (error as { code?: string }).code === 'ELOOP') return 'link' as const
    return null
  })
  if (handle === null) return null
  if (handle === 'link') return { ok: false, error: 'SKILL.md is a link; a learned skill never is' }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) return null
    if (stats.size > MAX_SKILL_BYTES) {
      return { ok: false, error: `SKILL.md is larger than ${MAX_SKILL_BYTES / 1024} KiB` }
    }
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}

type ReadSkill =
  | { ok: true; name: string; description: string; body: string; provenance?: Provenance }
  | { ok: false; error: string }

/**
 * A SKILL.md's name, description and instructions, and its provenance when it says it is
 * untrusted; nothing else in its front matter is used, so no key (`allowed-tools`, `paths`…) can
 * give a skill anything, and `provenance` can only take trust away.
 */
export function readSkill(source: string, folder: string): ReadSkill {
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
  if (!SKILL_NAME_PATTERN.test(chosen)) {
    return {
      ok: false,
      error: `the name "${chosen}" may hold only letters, digits, ".", "_" and "-", at most 64 of them (it becomes /${chosen})`
    }
  }
  if (typeof description !== 'string' || !description.trim()) {
    return {
      ok: false,
      error: 'the front matter needs a `description` saying when to use the skill'
    }
  }
  const provenance = provenanceOfSkill(parsed.data)
  return {
    ok: true,
    name: chosen,
    description: description.trim(),
    body: parsed.body.trim(),
    ...(provenance ? { provenance } : {})
  }
}
