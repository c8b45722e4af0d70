import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Provenance } from '../../shared/provenance'
import type { CommandView, SkillOrigin } from '../../shared/skills'
import { parseFrontMatter } from './front-matter'
import type { Skill } from './skills'

/** Commands the window carries out itself; a file or skill of the same name loses to them. */
export const builtinCommands: readonly CommandView[] = [
  builtin('clear', 'Start a fresh session in this folder'),
  builtin('help', 'List the commands you can use here'),
  builtin('model', 'Choose the model for this session'),
  builtin('new', 'Start a new session'),
  builtin('plan', 'Turn planning mode on or off (read-only tools only)')
]

/** A command and what it expands to (its body, with `$ARGUMENTS` still in it). */
export interface CommandEntry {
  view: CommandView
  body: string
  /** A skill's, when it was written in a conversation that held untrusted input. */
  provenance?: Provenance
}

export interface CommandSet {
  commands: CommandEntry[]
  /** Name clashes and unreadable files, in words a person can act on. */
  problems: string[]
}

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** Where command files are found besides the conventional folders: the launch flags. */
export interface CommandPlaces {
  /** false (`--no-commands`): no command files at all; the built-ins and skills stay. */
  files: boolean
  /** `--commands-dir`: the operator's folders, whose commands win over the project's and yours. */
  dirs: readonly string[]
}

/** The conventional folders only. */
export const conventionalCommands: CommandPlaces = { files: true, dirs: [] }

/**
 * Every slash command of a folder: the built-ins, `<name>.md` files of the project's and the
 * person's `.mecatl/commands` and `.claude/commands`, then each skill. The first of a name wins:
 * a built-in over a file, a file over a skill, the project over the person.
 */
export async function loadCommands(
  workspace: string,
  userDir: string,
  skills: readonly Skill[],
  places: CommandPlaces = conventionalCommands
): Promise<CommandSet> {
  const commands: CommandEntry[] = builtinCommands.map((view) => ({ view, body: '' }))
  const problems: string[] = []
  const add = (entry: CommandEntry): void => {
    const earlier = commands.find((c) => c.view.name === entry.view.name)
    if (!earlier) {
      commands.push(entry)
      return
    }
    const what = entry.view.path ?? `/${entry.view.name}`
    const winner =
      earlier.view.kind === 'builtin' ? 'the built-in command' : (earlier.view.path ?? 'another')
    problems.push(`/${entry.view.name} from ${what} is hidden by ${winner} of the same name`)
  }
  for (const root of commandRoots(workspace, userDir, places)) {
    const entries = await readdir(root.dir, { withFileTypes: true }).catch(() => [])
    const files = entries
      .filter((e) => e.isFile() && e.name.endsWith('.md'))
      .map((e) => e.name)
      .sort()
    for (const file of files) {
      const name = file.slice(0, -'.md'.length)
      const full = path.join(root.dir, file)
      if (!namePattern.test(name)) {
        problems.push(`${full}: a command name may hold only letters, digits, ".", "_" and "-"`)
        continue
      }
      const source = await readFile(full, 'utf8').catch(() => null)
      if (source === null) continue
      const parsed = parseFrontMatter(source)
      if (!parsed.ok) {
        problems.push(`${full}: ${parsed.error}`)
        continue
      }
      const described = parsed.data.description
      add({
        view: {
          name,
          description: typeof described === 'string' ? described.trim() : firstLine(parsed.body),
          kind: 'command',
          origin: root.origin,
          path: full
        },
        body: parsed.body.trim()
      })
    }
  }
  for (const skill of skills) {
    add({
      view: {
        name: skill.name,
        description: skill.description,
        kind: 'skill',
        origin: skill.origin,
        path: skill.path
      },
      body: skill.body,
      ...(skill.provenance ? { provenance: skill.provenance } : {})
    })
  }
  return { commands, problems }
}

function commandRoots(
  workspace: string,
  userDir: string,
  places: CommandPlaces
): { dir: string; origin: SkillOrigin }[] {
  if (!places.files) return []
  return [
    ...places.dirs.map((dir) => ({ dir: path.resolve(dir), origin: 'operator' as const })),
    { dir: path.join(workspace, '.mecatl', 'commands'), origin: 'project' },
    { dir: path.join(workspace, '.claude', 'commands'), origin: 'project' },
    { dir: path.join(userDir, 'commands'), origin: 'user' }
  ]
}

/** The first line with words in it, without Markdown heading marks. */
export function firstLine(body: string): string {
  const line = body.split('\n').find((l) => l.trim()) ?? ''
  return line.replace(/^#+\s*/, '').trim()
}

/**
 * What a message becomes before it is sent: `/name rest` with a command file (or skill) of that
 * name is replaced by its body, `$ARGUMENTS` by `rest` (appended when the body has no
 * placeholder and something was given). Anything else, built-ins included, is sent as written.
 */
export function expandCommand(text: string, commands: readonly CommandEntry[]): string {
  const entry = commandOf(text, commands)
  const match = /^\/([^\s/]+)(?:[ \t]+([\s\S]*)|\s*)$/.exec(text.trim())
  if (!entry || !match) return text
  const args = (match[2] ?? '').trim()
  if (entry.body.includes('$ARGUMENTS')) return entry.body.split('$ARGUMENTS').join(args)
  return args ? `${entry.body}\n\n${args}` : entry.body
}

/** The command file or skill a message `/name …` expands, or null when it expands none. */
export function commandOf(text: string, commands: readonly CommandEntry[]): CommandEntry | null {
  const match = /^\/([^\s/]+)(?:[ \t]+[\s\S]*|\s*)$/.exec(text.trim())
  if (!match) return null
  return commands.find((c) => c.view.name === match[1] && c.view.kind !== 'builtin') ?? null
}

function builtin(name: string, description: string): CommandView {
  return { name, description, kind: 'builtin', origin: null, path: null }
}
