import type { ElicitField } from '../../../../shared/elicitation'

/** What a field's control holds while the person types: text for inputs, flags, lists. */
export type DraftValue = string | boolean | string[]
export type ElicitDraft = Record<string, DraftValue>

/** The form as it opens: each field at the server's default, or empty. */
export function initialDraft(fields: readonly ElicitField[]): ElicitDraft {
  const draft: ElicitDraft = {}
  for (const field of fields) {
    switch (field.kind) {
      case 'boolean':
        draft[field.name] = field.default ?? false
        break
      case 'multi':
        draft[field.name] = field.default ?? []
        break
      case 'number':
        draft[field.name] = field.default === null ? '' : String(field.default)
        break
      default:
        draft[field.name] = field.default ?? ''
    }
  }
  return draft
}

/**
 * The answer sent for a draft. An empty field is left out (the main process then says which
 * required one is missing); a number that does not parse is sent as typed, so the refusal names
 * its field instead of the form guessing.
 */
export function draftContent(
  fields: readonly ElicitField[],
  draft: ElicitDraft
): Record<string, unknown> {
  const content: Record<string, unknown> = {}
  for (const field of fields) {
    const value = draft[field.name]
    if (field.kind === 'boolean') {
      content[field.name] = value === true
    } else if (field.kind === 'multi') {
      const chosen = Array.isArray(value) ? value : []
      if (chosen.length > 0 || field.required) content[field.name] = chosen
    } else if (typeof value === 'string' && value.trim() !== '') {
      if (field.kind === 'number') {
        const parsed = Number(value.trim())
        content[field.name] = Number.isFinite(parsed) ? parsed : value
      } else {
        content[field.name] = value
      }
    }
  }
  return content
}
