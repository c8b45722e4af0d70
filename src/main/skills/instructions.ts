import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { InstructionFile } from '../../shared/skills'

/** The instruction files read into the system prompt, in the order they appear there. */
export function instructionPaths(workspace: string, userDir: string): InstructionFile[] {
  return [
    { label: '~/AGENTS.md', path: path.join(userDir, 'AGENTS.md'), origin: 'user' },
    { label: 'AGENTS.md', path: path.join(workspace, 'AGENTS.md'), origin: 'project' },
    { label: 'CLAUDE.md', path: path.join(workspace, 'CLAUDE.md'), origin: 'project' }
  ]
}

export interface LoadedInstructions {
  files: InstructionFile[]
  /** The block added to the system prompt; empty when there are no files. */
  text: string
  /** Changes whenever any file appears, disappears or changes. */
  digest: string
}

/** Reads the instruction files that exist; a missing or unreadable one is simply not there. */
export async function loadInstructions(
  workspace: string,
  userDir: string
): Promise<LoadedInstructions> {
  const files: InstructionFile[] = []
  const parts: string[] = []
  const hash = createHash('sha256')
  for (const file of instructionPaths(workspace, userDir)) {
    const text = await readFile(file.path, 'utf8').catch(() => null)
    if (text === null || !text.trim()) continue
    files.push(file)
    hash.update(`${file.path}\0${text}\0`)
    const whose =
      file.origin === 'user' ? "the person's own instructions" : 'the project instructions'
    parts.push(
      `<instructions file="${file.label}" from="${whose}">\n${text.trim()}\n</instructions>`
    )
  }
  const text = parts.length
    ? [
        'Instructions kept in files by the person and the project follow; follow them unless they conflict with safety.',
        ...parts
      ].join('\n\n')
    : ''
  return { files, text, digest: hash.digest('hex') }
}

/**
 * A session's instructions: read when it starts, and re-read before each turn so an edited file
 * takes effect at once. `changed` tells the caller the prompt differs from the last turn's.
 */
export class SessionInstructions {
  private current: LoadedInstructions | null = null

  constructor(
    private readonly workspace: string,
    private readonly userDir: string
  ) {}

  async refresh(): Promise<{ loaded: LoadedInstructions; changed: boolean }> {
    const loaded = await loadInstructions(this.workspace, this.userDir)
    const changed = this.current !== null && this.current.digest !== loaded.digest
    this.current = loaded
    return { loaded, changed }
  }

  files(): InstructionFile[] {
    return this.current?.files ?? []
  }
}
