import { create } from 'zustand'

/** A slash command as the shortcuts list shows it (from the composer's `/` palette). */
export interface CommandLine {
  command: string
  description: string | null
  tag: string
}

interface KeysState {
  paletteOpen: boolean
  /** What went wrong with the action the palette last ran, shown when it opens again. */
  paletteError: string | null
  /** The shortcuts list; `commands` is filled when `/help` opened it. */
  shortcutsOpen: boolean
  commands: CommandLine[] | null
}

/** Which of the keyboard's dialogs is open: the command palette or the shortcuts list. */
export const useKeys = create<KeysState>(() => ({
  paletteOpen: false,
  paletteError: null,
  shortcutsOpen: false,
  commands: null
}))

export function togglePalette(): void {
  useKeys.setState((s) => ({
    paletteOpen: !s.paletteOpen,
    paletteError: null,
    shortcutsOpen: false
  }))
}

export function closePalette(): void {
  useKeys.setState({ paletteOpen: false, paletteError: null })
}

/** Opens the palette again saying why its last action failed. */
export function paletteFailed(error: string): void {
  useKeys.setState({ paletteOpen: true, paletteError: error, shortcutsOpen: false })
}

/** Opens the shortcuts list; `/help` passes the slash commands to list beside them. */
export function openShortcuts(commands: CommandLine[] | null = null): void {
  useKeys.setState({ shortcutsOpen: true, paletteOpen: false, commands })
}

export function closeShortcuts(): void {
  useKeys.setState({ shortcutsOpen: false, commands: null })
}
