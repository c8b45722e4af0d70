import { useEffect, useSyncExternalStore } from 'react'
import type { Options } from 'react-markdown'

type RehypePlugins = NonNullable<Options['rehypePlugins']>

// highlight.js with its languages is a large share of the window, and most of a project window's
// first screen has no code in it: it loads when the first reply with a fenced code block is
// shown. Until then, and if it cannot be had, code blocks show as plain text in their frame.
const plain: RehypePlugins = []
let loaded: RehypePlugins | null = null
let loading: Promise<void> | null = null
const listeners = new Set<() => void>()

/** Starts loading the highlighter unless it is loaded or on its way; a failed load may retry. */
function loadHighlighter(): void {
  if (loaded || loading) return
  loading = import('./highlight-plugins').then(
    (module) => {
      loaded = module.highlightPlugins
      for (const listener of listeners) listener()
    },
    (error: unknown) => {
      // The code stays readable unhighlighted; the next reply with code asks again.
      loading = null
      console.warn('Code highlighting could not be loaded:', error)
    }
  )
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const current = (): RehypePlugins => loaded ?? plain

/** A fence that opens a code block with a language, the only code rehype-highlight colours. */
const LANGUAGE_FENCE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*[^\s`~]/m

/** Whether Markdown text holds code the highlighter would colour. */
export function hasHighlightableCode(text: string): boolean {
  return LANGUAGE_FENCE.test(text)
}

/**
 * The rehype plugins to render `text` with: none until the highlighter has loaded, which this
 * starts the first time a text with a fenced, labelled code block is shown; every reply
 * re-renders highlighted when it arrives.
 */
export function useHighlightPlugins(text: string): RehypePlugins {
  const wanted = hasHighlightableCode(text)
  useEffect(() => {
    if (wanted) loadHighlighter()
  }, [wanted])
  return useSyncExternalStore(subscribe, current)
}
