import { togglePlanning } from '../safety'
import { createSession } from '../sessions'
import type { BuiltinName } from './slash-commands'

/**
 * Carries out a built-in command in the window. `help` is shown by the palette itself. Resolves
 * with what went wrong, or null.
 */
export async function runBuiltin(name: Exclude<BuiltinName, 'help'>): Promise<string | null> {
  switch (name) {
    case 'new':
    case 'clear':
      // A fresh session in the same folder; the old one stays in the list.
      await createSession()
      return null
    case 'model': {
      const picker = document.querySelector<HTMLElement>('[data-testid="model-picker"]')
      if (!picker) return 'There is no model to choose: add a provider in Settings.'
      picker.focus()
      return null
    }
    case 'plan':
      return togglePlanning()
  }
}
