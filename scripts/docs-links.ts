// The links between README.md and the pages of docs/: which relative links and anchors lead
// nowhere, read the way GitHub renders them. scripts/docs-links.test.ts runs it over the real files.
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

/** A link as written: where it points, and the line it is on (1-based). */
export interface MarkdownLink {
  target: string
  line: number
}

/** A Markdown heading: its level, its text and the line it is on. */
export interface MarkdownHeading {
  level: number
  text: string
  line: number
}

/** Lines of `text` with fenced code blocks blanked, so nothing inside one counts. */
function proseLines(text: string): string[] {
  let fence: string | null = null
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence === null && marker) {
      fence = marker
      return ''
    }
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null
      return ''
    }
    return line
  })
}

/** A line with its code spans removed: `[x](y)` in backticks is code, not a link. */
const withoutCode = (line: string): string => line.replace(/(`+)(?:(?!\1).)*?\1/g, '')

/** Inline links and images, `[text](target)` and `![alt](target)`, outside code. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = []
  proseLines(text).forEach((raw, i) => {
    for (const match of withoutCode(raw).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1] ?? '', line: i + 1 })
    }
  })
  return links
}

/** ATX headings (`## Title`), outside code. */
export function markdownHeadings(text: string): MarkdownHeading[] {
  const headings: MarkdownHeading[] = []
  proseLines(text).forEach((line, i) => {
    const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)
    if (match?.[1] && match[2] !== undefined) {
      headings.push({ level: match[1].length, text: match[2], line: i + 1 })
    }
  })
  return headings
}

/** The anchor GitHub gives a heading of this text, the first time it appears on a page. */
export function anchorOf(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/**
 * The anchors GitHub gives a page's headings: its text as rendered (links, code and emphasis marks gone),
 * lower case, punctuation dropped but `-` and `_`, spaces as `-`; a repeated one gets `-1`, `-2`….
 */
export function headingAnchors(text: string): string[] {
  const seen = new Map<string, number>()
  return markdownHeadings(text).map((heading) => {
    const base = anchorOf(heading.text)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    return count === 0 ? base : `${base}-${count}`
  })
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target)

/** What brokenLinks reads, by repository-relative path; the disk unless a test gives its own. */
export interface DocsFiles {
  exists(file: string): boolean
  read(file: string): string
  isDirectory(file: string): boolean
}

function onDisk(root: string): DocsFiles {
  return {
    exists: (file) => existsSync(path.join(root, file)),
    read: (file) => readFileSync(path.join(root, file), 'utf8'),
    isDirectory: (file) => statSync(path.join(root, file)).isDirectory()
  }
}

/**
 * Every relative link of `files` (repository-relative Markdown paths) that leads nowhere: a file
 * that does not exist, or an anchor no heading of its page has. One sentence each, with its line.
 */
export function brokenLinks(
  root: string,
  files: readonly string[],
  disk: DocsFiles = onDisk(root)
): string[] {
  const anchorsOf = new Map<string, string[]>()
  const anchors = (file: string): string[] => {
    let found = anchorsOf.get(file)
    if (!found) {
      found = headingAnchors(disk.read(file))
      anchorsOf.set(file, found)
    }
    return found
  }
  const broken: string[] = []
  for (const file of files) {
    for (const { target, line } of markdownLinks(disk.read(file))) {
      if (isExternal(target)) continue
      const hash = target.indexOf('#')
      const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash))
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1))
      const resolved = pathPart
        ? path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart))
        : file
      const where = `${file}:${line}: ${target}`
      // A clone holds the repository alone: a link out of it leads nowhere on a reader's disk.
      if (resolved === '..' || resolved.startsWith('../')) {
        broken.push(`${where} leads out of the repository (${resolved})`)
        continue
      }
      if (!disk.exists(resolved)) {
        broken.push(`${where} leads to ${resolved}, which does not exist`)
        continue
      }
      if (anchor === null) continue
      if (!resolved.endsWith('.md') || disk.isDirectory(resolved)) {
        broken.push(`${where} has an anchor, but ${resolved} is not a Markdown page`)
      } else if (!anchors(resolved).includes(anchor)) {
        broken.push(`${where}: ${resolved} has no heading whose anchor is #${anchor}`)
      }
    }
  }
  return broken
}
