/**
 * Markdown as the plain words a reader sees: marks, fences, link targets and HTML tags go, the
 * text inside them stays. Made for search snippets, which show a line of a message as text
 * (a regex pass, not a parser: a snippet needs the words, not the document's structure).
 */
export function markdownToPlain(markdown: string): string {
  const lines: string[] = []
  for (const raw of markdown.split(/\r?\n/)) {
    // Code fences, rules and table separators carry no words.
    if (/^\s*(```|~~~)/.test(raw)) continue
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) continue
    if (/^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(raw)) continue
    let line = raw
      .replace(/^\s{0,3}#{1,6}\s+/, '')
      .replace(/^\s*(>\s?)+/, '')
      .replace(/^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, '')
    if (/^\s*\|/.test(line)) line = line.replace(/\|/g, ' ')
    lines.push(line)
  }
  return lines
    .join('\n')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/(`+)([^`]+?)\1/g, '$2')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, '$1$2')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
}
