import { createHash } from 'node:crypto'
import path from 'node:path'
import { stringify } from 'yaml'
import type { Provenance } from '../../shared/provenance'
import type { SkillDraftView, SkillOrigin, SkillView } from '../../shared/skills'
import type { JailedDir } from '../workspace/jailed-dir'
import { writeFileAtomicIn } from '../workspace/atomic-write'
import { parseFrontMatter } from './front-matter'
import { openProjectDir, readSmallFile, SkillFolderError } from './project-dir'
import { PROVENANCE_KEY, provenanceFrontMatter } from './skill-provenance'
import {
  LEARNED_SKILLS_DIR,
  MAX_SKILL_BYTES,
  readSkill,
  scanSkills,
  SKILL_NAME_PATTERN,
  type SkillPlaces
} from './skills'

// Drafts live in the project, at `.mecatl/skill-drafts/<name>/SKILL.md`: they are the project's
// (checkpointed with it, visible to `git status`, undone like any change the agent made), and
// outside every folder skills are loaded from, so nothing ever loads one. Activating a draft
// writes a fresh SKILL.md to `.mecatl/learned-skills/<name>/`, the last of the skill folders, so
// a learned skill never shadows an operator's, the project's or the person's own.

/** Where SkillDraft saves drafts in a project. */
export const SKILL_DRAFTS_DIR = path.join('.mecatl', 'skill-drafts')

/** What a skill is made of once it is a draft: nothing that could give it tools or paths. */
export interface SkillText {
  name: string
  description: string
  body: string
  /** Where it was written, when that was a conversation that held untrusted input. */
  provenance?: Provenance
}

/**
 * The only front-matter keys a draft keeps when it is activated: `provenance` too, as it can only
 * take trust away (see skill-provenance.ts).
 */
const KEPT_KEYS = new Set(['name', 'description', PROVENANCE_KEY])

/**
 * The SKILL.md of a draft or a learned skill: `name`, `description` and, for one written in a
 * conversation that held untrusted input, its `provenance`; then the instructions.
 */
export function skillFileText(skill: SkillText): string {
  const provenance = provenanceFrontMatter(skill.provenance)
  const front = stringify(
    {
      name: skill.name,
      description: skill.description,
      ...(provenance ? { [PROVENANCE_KEY]: provenance } : {})
    },
    { lineWidth: 0 }
  )
  return `---\n${front}---\n\n${skill.body.trim()}\n`
}

/** What an act on a draft did: the path it acted on (the skill made, the draft removed), or why not. */
export type DraftAct = { ok: true; path: string } | { ok: false; error: string }

/** What the person was shown of a draft, so an act applies to exactly that text. */
export function draftDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** Every draft of a project, sorted by name; a malformed one says why it cannot be activated. */
export async function listDrafts(
  workspace: string,
  places: SkillPlaces
): Promise<SkillDraftView[]> {
  const dir = await openProjectDir(workspace, SKILL_DRAFTS_DIR, false)
  if (dir === null) return []
  try {
    const { views } = await scanSkills(workspace, places.userDir, places.operatorDirs)
    const names = (await dir.readdir())
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
    const drafts: SkillDraftView[] = []
    for (const name of names) {
      const draft = await readDraftIn(dir, workspace, name)
      if (draft) drafts.push(inspect(draft, views))
    }
    return drafts
  } finally {
    await dir.close()
  }
}

/**
 * A draft becomes a learned skill: refused, in a sentence, when it changed since it was shown,
 * is malformed, or its name belongs to another skill. Only its name, description and
 * instructions are written; the draft is removed once the skill is in place.
 */
export async function activateDraft(
  workspace: string,
  places: SkillPlaces,
  name: string,
  digest: string
): Promise<DraftAct> {
  return actOnShownDraft(workspace, name, digest, async (draft) => {
    const { views } = await scanSkills(workspace, places.userDir, places.operatorDirs)
    const view = inspect(draft, views)
    if (view.problem)
      return { ok: false, error: `The draft "${name}" cannot be activated: ${view.problem}.` }
    const skill = readSkill(draft.text, name)
    if (!skill.ok)
      return { ok: false, error: `The draft "${name}" cannot be activated: ${skill.error}.` }
    const target = await openProjectDir(workspace, path.join(LEARNED_SKILLS_DIR, name), true)
    if (target === null) throw new SkillFolderError(`${LEARNED_SKILLS_DIR} could not be created`)
    try {
      await writeFileAtomicIn(target, 'SKILL.md', skillFileText(skill), null)
    } finally {
      await target.close()
    }
    await removeDraft(workspace, name)
    return { ok: true, path: path.join(workspace, LEARNED_SKILLS_DIR, name, 'SKILL.md') }
  })
}

/** Removes a draft, as it was shown (a draft rewritten since is left for another look). */
export async function deleteDraft(
  workspace: string,
  name: string,
  digest: string
): Promise<DraftAct> {
  return actOnShownDraft(workspace, name, digest, async (draft) => {
    await removeDraft(workspace, name)
    return { ok: true, path: draft.path }
  })
}

/**
 * Why a draft of this name could not become a skill, or null: a skill of any other origin
 * already has the name (also told apart only by case), and those always win a clash.
 */
export function nameTakenBy(name: string, views: readonly SkillView[]): string | null {
  const holder = views.find(
    (view) => view.origin !== 'learned' && view.name.toLowerCase() === name.toLowerCase()
  )
  if (!holder) return null
  return `${originWords[holder.origin]} named "${holder.name}" already exists (${holder.path}), and operator, project and your own skills always win a name clash; save the draft under another name, or delete it`
}

const originWords: Record<SkillOrigin, string> = {
  operator: "a skill of the operator's",
  project: 'a project skill',
  user: 'one of your own skills',
  learned: 'a learned skill'
}

interface Draft {
  name: string
  /** The SKILL.md as read; empty when it could not be. */
  text: string
  /** Why it could not be read (a link, too large), or null. */
  unreadable: string | null
  path: string
}

/** The draft in the folder `name` of the drafts folder; null when it holds no SKILL.md. */
async function readDraftIn(
  parent: JailedDir,
  workspace: string,
  name: string
): Promise<Draft | null> {
  const where = path.join(workspace, SKILL_DRAFTS_DIR, name, 'SKILL.md')
  let own: JailedDir
  try {
    own = await parent.openDir(name)
  } catch {
    return null
  }
  try {
    const text = await readSmallFile(own, 'SKILL.md', MAX_SKILL_BYTES)
    return text === null ? null : { name, text, unreadable: null, path: where }
  } catch (error) {
    if (!(error instanceof SkillFolderError)) throw error
    return { name, text: '', unreadable: error.message, path: where }
  } finally {
    await own.close()
  }
}

/** A draft as listed, with what activating it would drop, replace, or be refused for. */
function inspect(draft: Draft, views: readonly SkillView[]): SkillDraftView {
  const base = {
    name: draft.name,
    text: draft.text,
    path: draft.path,
    digest: draftDigest(draft.text),
    replaces: views.some((v) => v.origin === 'learned' && v.name === draft.name)
  }
  const refused = (problem: string, dropped: string[] = []): SkillDraftView => ({
    ...base,
    description: '',
    dropped,
    problem
  })
  if (draft.unreadable) return refused(draft.unreadable)
  if (!SKILL_NAME_PATTERN.test(draft.name)) {
    return refused(
      `the folder name "${draft.name}" is not a skill name (letters, digits, ".", "_" and "-", at most 64)`
    )
  }
  const parsed = parseFrontMatter(draft.text)
  const dropped = parsed.ok ? Object.keys(parsed.data).filter((key) => !KEPT_KEYS.has(key)) : []
  const skill = readSkill(draft.text, draft.name)
  if (!skill.ok) return refused(skill.error, dropped)
  const problem =
    skill.name !== draft.name
      ? `its front matter names it "${skill.name}" but its folder is "${draft.name}"; make them the same`
      : nameTakenBy(skill.name, views)
  const provenance = skill.provenance ? { provenance: skill.provenance } : {}
  return { ...base, description: skill.description, dropped, problem, ...provenance }
}

type Found = { ok: true; draft: Draft } | { ok: false; error: string }

/** The draft of that name, if it still reads as the text whose digest the person was shown. */
async function shownDraft(workspace: string, name: string, digest: string): Promise<Found> {
  if (!SKILL_NAME_PATTERN.test(name)) {
    return { ok: false, error: `"${name}" is not the name of a skill draft.` }
  }
  const parent = await openProjectDir(workspace, SKILL_DRAFTS_DIR, false)
  const draft = parent
    ? await readDraftIn(parent, workspace, name).finally(() => parent.close())
    : null
  if (draft === null) {
    return {
      ok: false,
      error: `There is no draft named "${name}" any more (it was activated or deleted meanwhile); reopen Settings → Skills to see the drafts there are.`
    }
  }
  if (draftDigest(draft.text) !== digest) {
    return {
      ok: false,
      error: `The draft "${name}" changed since it was shown, so nothing was done; read it again, then choose.`
    }
  }
  return { ok: true, draft }
}

/** Removes the draft's SKILL.md, then its folder when nothing else is in it. */
async function removeDraft(workspace: string, name: string): Promise<void> {
  const parent = await openProjectDir(workspace, SKILL_DRAFTS_DIR, false)
  if (parent === null) return
  try {
    const own = await parent.openDir(name).catch(() => null)
    if (own === null) return
    try {
      await own.unlink('SKILL.md').catch(() => undefined)
    } finally {
      await own.close()
    }
    // Files the model put beside SKILL.md are left with the folder; without SKILL.md it is no draft.
    await parent.rmdir(name).catch(() => undefined)
  } finally {
    await parent.close()
  }
}

/**
 * Does `act` to the draft `name` as the person was shown it (`digest`): refused, in a sentence,
 * when it is not there as shown, or when a skill folder cannot be used.
 */
async function actOnShownDraft(
  workspace: string,
  name: string,
  digest: string,
  act: (draft: Draft) => Promise<DraftAct>
): Promise<DraftAct> {
  try {
    const found = await shownDraft(workspace, name, digest)
    if (!found.ok) return found
    return await act(found.draft)
  } catch (error) {
    if (error instanceof SkillFolderError)
      return { ok: false, error: `Nothing was done: ${error.message}.` }
    throw error
  }
}
