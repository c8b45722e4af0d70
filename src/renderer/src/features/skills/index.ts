// Skills, slash commands, instructions and the model's questions as the rest of the window sees
// them: what the chat shows, the Settings section, the commands the palette offers, and the
// wiring that keeps them current.
import { lazySection } from '../../ui/lazy-section'
export { runBuiltin } from './builtin-commands'
export { InstructionsLine } from './instructions-line'
export { QuestionCard } from './question-card'
export { loadCommands, useSlashCommands, wireSkills } from './skills-store'
export { builtinOf, commandItems, type PaletteItem } from './slash-commands'

// Its section of Settings loads with the Settings page, not with the window (ui/lazy-section.tsx).
export const SkillsSection = lazySection(() =>
  import('./skills-section').then((module) => module.SkillsSection)
)
