import type { z } from 'zod'
import { inputString } from '../../../shared/tool-input'
import { familyTool, type Tool } from '../tool'
import { plainPresentation, type ToolPresentation } from '../tool-presentation'
import { changesFiles, readsFiles } from './file-state'

/** The facts every file tool has alike, which fileTool states for it. */
type FamilyFacts = 'readOnly' | 'capabilities' | 'source' | 'needsFolder' | 'defaultDecision'

/**
 * What a file tool must say of itself: every fact of Tool but the family's, and whether it reads
 * or changes the person's files. One that changes them must name the paths it writes, so the
 * gate sees a write that leads into `.git` (Tool leaves `pathsWritten` optional for the others).
 */
export type FileToolFacts<Schema extends z.ZodType> = Omit<Tool<Schema>, FamilyFacts> &
  (
    | { readonly access: 'reads'; pathsWritten?: never }
    | { readonly access: 'changes'; pathsWritten(input: z.infer<Schema>): string[] }
  )

/**
 * Declares a tool of the file family. They are built in and work in the project folder, so a
 * no-fs session never has them; no permission rule naming one leaves its calls to the mode. What
 * they may do follows from `access`: reading private files, or changing (and so maybe destroying)
 * them.
 */
export function fileTool<Schema extends z.ZodType>(facts: FileToolFacts<Schema>): Tool {
  const { access, ...own } = facts
  const reads = access === 'reads'
  return familyTool<Schema, FamilyFacts>(
    {
      readOnly: reads,
      capabilities: reads ? readsFiles : changesFiles,
      source: 'builtin',
      needsFolder: true,
      defaultDecision: null
    },
    own
  )
}

/** How Copy and Move show a call: "Move notes.md to old/notes.md." */
export function relocationPresentation(name: 'Copy' | 'Move'): ToolPresentation {
  return {
    ...plainPresentation(name, 'files'),
    sentence: (input) =>
      `${name} ${inputString(input, 'source') ?? 'a file'} to ${inputString(input, 'destination') ?? 'another place'}.`
  }
}
