import { z } from 'zod'

/** `system` follows the operating system's light or dark setting, live. */
export const themeChoiceSchema = z.enum(['system', 'light', 'dark'])
export type ThemeChoice = z.infer<typeof themeChoiceSchema>

/** `appearance:` in the user's settings: how the window looks. */
export const appearanceSettingsSchema = z
  .object({
    theme: themeChoiceSchema.default('system')
  })
  .strict()
export type AppearanceSettings = z.infer<typeof appearanceSettingsSchema>
export const appearanceDefaults: AppearanceSettings = appearanceSettingsSchema.parse({})
