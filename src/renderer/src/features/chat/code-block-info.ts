/** The part of a hast node (what react-markdown hands a component as `node`) read here. */
export interface HastNode {
  type: string
  tagName?: string
  value?: string
  properties?: { className?: unknown }
  children?: HastNode[]
}

/** What a fenced code block shows in its header and puts on the clipboard. */
export interface CodeBlockInfo {
  /** The fence's language (```ts → `ts`), or `text` when it names none. */
  language: string
  /** The code exactly as written between the fences. */
  text: string
}

function textOf(node: HastNode): string {
  if (node.type === 'text') return node.value ?? ''
  return (node.children ?? []).map(textOf).join('')
}

function classNames(node: HastNode): string[] {
  const value = node.properties?.className
  if (Array.isArray(value)) return value.filter((name): name is string => typeof name === 'string')
  return typeof value === 'string' ? value.split(/\s+/) : []
}

/**
 * Reads a `<pre>` node: its language from the code element's `language-*` class, its code from
 * the text nodes under it. Read from the tree rather than from the page, so highlighting spans
 * never change what is copied.
 */
export function codeBlockInfo(pre: HastNode | undefined): CodeBlockInfo {
  if (!pre) return { language: 'text', text: '' }
  const code = pre.children?.find((child) => child.tagName === 'code') ?? pre
  const language = classNames(code)
    .find((name) => name.startsWith('language-'))
    ?.slice('language-'.length)
  // The Markdown-to-HTML step ends every code block with one newline the fence did not hold.
  const text = textOf(code).replace(/\n$/, '')
  return { language: language || 'text', text }
}
