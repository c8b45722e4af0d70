// Skills, slash commands, instructions and the model's questions as the rest of the window sees
// them: what the chat shows, the Settings section, the commands the palette offers, and the
// wiring that keeps them current.
export { runBuiltin } from './builtin-commands'
export { InstructionsLine } from './instructions-line'
export { QuestionCard } from './question-card'
export { SkillsSection } from './skills-section'
export { loadCommands, useSlashCommands, wireSkills } from './skills-store'
export { builtinOf, commandItems, type PaletteItem } from './slash-commands'
