// Keyboard shortcuts as the rest of the window sees them: the layer that owns the keys and its
// palettes, the list the person can open, and the label a button's tooltip shows.
export { KeyboardLayer } from './keyboard-layer'
export { openShortcuts } from './keys-store'
export { currentPlatform, shortcutLabel } from './shortcut-match'
