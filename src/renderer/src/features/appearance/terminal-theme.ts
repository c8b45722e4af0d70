import type { ITheme } from '@xterm/xterm'
import type { ResolvedTheme } from './theme'

// The app's own accents for the ANSI colours. The light set is darkened so that each colour
// reads at AA (4.5:1) on the light terminal background, as the dark set does on the dark one.
const dark: ITheme = {
  background: '#18181c',
  foreground: '#e3e3e8',
  cursor: '#18181c',
  selectionBackground: '#4b43c4aa',
  black: '#26262c',
  red: '#f0716b',
  green: '#5fce8a',
  yellow: '#e6c15a',
  blue: '#6b9cf5',
  magenta: '#b48cf2',
  cyan: '#56c6d6',
  white: '#d4d4dc',
  brightBlack: '#8a8a96',
  brightRed: '#ff8f89',
  brightGreen: '#7fe0a4',
  brightYellow: '#f2d47e',
  brightBlue: '#8fb5ff',
  brightMagenta: '#c9a8ff',
  brightCyan: '#7fdbe7',
  brightWhite: '#ffffff'
}

const light: ITheme = {
  background: '#f8f8fa',
  foreground: '#1c1c21',
  cursor: '#f8f8fa',
  selectionBackground: '#b9b4f5aa',
  black: '#1c1c21',
  red: '#b0261f',
  green: '#17693a',
  yellow: '#7a5200',
  blue: '#1f4fb8',
  magenta: '#7a3fb8',
  cyan: '#0b6470',
  white: '#5f5f6b',
  brightBlack: '#5f5f6b',
  brightRed: '#a0221c',
  brightGreen: '#145c33',
  brightYellow: '#6b4700',
  brightBlue: '#1a44a0',
  brightMagenta: '#6a35a2',
  brightCyan: '#095560',
  brightWhite: '#1c1c21'
}

/** xterm.js colours for the painted theme (xterm draws on a canvas CSS cannot reach). */
export function terminalTheme(theme: ResolvedTheme): ITheme {
  return theme === 'dark' ? dark : light
}
