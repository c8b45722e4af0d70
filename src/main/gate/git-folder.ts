import path from 'node:path'
import type { Tool } from '../tools/tool'
import { inGitFolder } from '../workspace/git-names'
import { PathJail } from '../workspace/path-jail'

// `.git` is not an ordinary folder: its config can name programs git runs on its own
// (core.fsmonitor, core.pager, hooks), so an approved edit there turns an allow-listed
// `git status` into running anything. Writes into it need a person, whatever allows the rest.
/** Why a write into `.git` needs a person, as the end of a sentence naming the write. */
export const GIT_FOLDER_WHY =
  'where a change can make git run programs (hooks, core.fsmonitor); a person must approve it'

/**
 * Where `requested` lands in a `.git` folder, shown relative to the project folder, or null when
 * it does not. Three readings count, as each is how some tool or the shell reaches it: the path
 * as written (normalised), its entry (the parent resolved through links, the last name as
 * written: what Move and Remove act on), and the path with every link followed (what Write and
 * a redirection open).
 */
export async function gitFolderTarget(jail: PathJail, requested: string): Promise<string | null> {
  const lexical = path.resolve(jail.root, requested)
  const candidates = [lexical]
  const parent = await jail.resolve(path.dirname(lexical))
  if (parent.ok) candidates.push(path.join(parent.path, path.basename(lexical)))
  const followed = await jail.resolve(requested)
  if (followed.ok) candidates.push(followed.path)
  const landing = candidates.find((candidate) => jail.contains(candidate) && inGitFolder(candidate))
  return landing === undefined ? null : jail.display(landing)
}

/**
 * Why a write into `.git` needs a person, in one sentence: `subject` is how the call names it
 * (`.git/config`, or `> g/config` for a redirection), `landing` where it really goes.
 */
export function gitFolderReason(
  subject: string,
  requested: string,
  landing: string,
  jail: PathJail,
  verb: 'is inside' | 'writes into'
): string {
  const direct = jail.display(path.resolve(jail.root, requested)) === landing
  return direct
    ? `\`${subject}\` ${verb} the repository's .git folder, ${GIT_FOLDER_WHY}`
    : `\`${subject}\` leads into the repository's .git folder (${landing}), ${GIT_FOLDER_WHY}`
}

/**
 * Why a file tool's call needs a person because it writes into `.git` (the paths it declares
 * with `pathsWritten`, resolved as the jail resolves them), or null when it does not.
 */
export async function gitFolderWrite(
  tool: Tool,
  input: unknown,
  workspace: string
): Promise<string | null> {
  if (!tool.pathsWritten) return null
  let paths: string[]
  let jail: PathJail
  try {
    paths = tool.pathsWritten(input)
    jail = new PathJail(workspace)
  } catch (error) {
    return `the paths this ${tool.name} call writes could not be checked (${describe(error)}), so a write into .git cannot be ruled out; a person must approve it`
  }
  for (const requested of paths) {
    const landing = await gitFolderTarget(jail, requested)
    if (landing !== null) return gitFolderReason(requested, requested, landing, jail, 'is inside')
  }
  return null
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
