import { shortcutLabel, type Platform, type ShortcutId } from './shortcut-match'

/** One line of the shortcuts list: the keys as this platform writes them, and what they do. */
export interface ShortcutLine {
  keys: string
  action: string
}

const chords: readonly { id: ShortcutId; action: string }[] = [
  { id: 'new-session', action: 'New session' },
  { id: 'palette', action: 'Command palette: switch session, settings, planning, jobs…' },
  { id: 'find', action: 'Find in the conversation' },
  { id: 'settings', action: 'Settings' },
  { id: 'focus-composer', action: 'Put the cursor in the message box' },
  { id: 'sidebar', action: 'Show or hide the sidebar' }
]

/** Every shortcut of the window, for the shortcuts list. */
export function shortcutLines(platform: Platform): ShortcutLine[] {
  return [
    ...chords.map(({ id, action }) => ({ keys: shortcutLabel(id, platform), action })),
    { keys: 'Enter', action: 'Send the message (in the find bar: next match)' },
    { keys: 'Shift+Enter', action: 'New line (in the find bar: previous match)' },
    { keys: '↑', action: 'In an empty message box: edit the last message' },
    { keys: 'Esc', action: 'Stop the turn; close the palette, find bar or this list' },
    { keys: '/', action: 'At the start of the message box: commands (/help shows this list)' }
  ]
}
