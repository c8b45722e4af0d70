import rehypeHighlight from 'rehype-highlight'
import type { Options } from 'react-markdown'
import 'highlight.js/styles/github.css'

/**
 * What a reply's Markdown is rendered with once code highlighting has loaded: highlight.js
 * (through rehype-highlight) and its stylesheet, a chunk of their own (see code-highlighter.ts).
 * Unknown fence languages stay plain instead of being guessed (guessing flickers while streaming).
 */
export const highlightPlugins: NonNullable<Options['rehypePlugins']> = [
  [rehypeHighlight, { detect: false }]
]
