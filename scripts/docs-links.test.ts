// README.md is the front door and docs/ holds the rest: every link between them must land, on a
// page that exists and a heading it has, and every page must be reachable from the index.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { brokenLinks, headingAnchors, markdownHeadings, markdownLinks } from './docs-links'

const root = path.resolve(import.meta.dirname, '..')
const pages = readdirSync(path.join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`)
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8')

describe('the documentation', () => {
  it('has no relative link or anchor in README.md or docs/*.md that leads nowhere', () => {
    expect(pages.length).toBeGreaterThan(1)
    expect(brokenLinks(root, ['README.md', ...pages])).toEqual([])
  })

  it('lists every page of docs/ in its index, and the README links the index', () => {
    const index = markdownLinks(read('docs/README.md')).map((link) => link.target.split('#')[0])
    const unlisted = pages.filter(
      (page) => page !== 'docs/README.md' && !index.includes(path.basename(page))
    )
    expect(unlisted, 'add these pages to docs/README.md').toEqual([])
    const front = markdownLinks(read('README.md')).map((link) => link.target)
    expect(front).toContain('docs/README.md')
  })

  it('opens every page with a table of contents: each section linked before the first', () => {
    const missing: string[] = []
    for (const page of pages) {
      const text = read(page)
      const headings = markdownHeadings(text)
      const anchors = headingAnchors(text)
      const first = headings.find((h) => h.level === 2)
      if (!first) continue
      const top = markdownLinks(text)
        .filter((link) => link.line < first.line)
        .map((link) => link.target)
      headings.forEach((heading, i) => {
        if (heading.level === 2 && !top.includes(`#${anchors[i]}`)) {
          missing.push(`${page}: "${heading.text}" (#${anchors[i]})`)
        }
      })
    }
    expect(missing, 'link these sections from the contents at the top of their page').toEqual([])
  })
})

describe('brokenLinks', () => {
  it('reads links outside code only, and headings outside fenced blocks only', () => {
    const text = [
      '# Title',
      'See [a](a.md#x) and `[not](a link)`.',
      '```md',
      '# Not a heading [nor](a link)',
      '```',
      '![img](pic.png "title")'
    ].join('\n')
    expect(markdownLinks(text)).toEqual([
      { target: 'a.md#x', line: 2 },
      { target: 'pic.png', line: 6 }
    ])
    expect(markdownHeadings(text).map((h) => h.text)).toEqual(['Title'])
  })

  it('gives headings the anchors GitHub gives them', () => {
    const text = [
      '## Checkpoints: undo what the agent changed',
      "### `.git` and git's own commands",
      '## `default_model`',
      '## Sessions: history, resume, fork, replay, export',
      '## Chat',
      '## Chat',
      '## OpenAI-compatible servers: Ollama, LM Studio…',
      '## Signing in (OAuth)',
      '## Settings → Memory'
    ].join('\n')
    expect(headingAnchors(text)).toEqual([
      'checkpoints-undo-what-the-agent-changed',
      'git-and-gits-own-commands',
      'default_model',
      'sessions-history-resume-fork-replay-export',
      'chat',
      'chat-1',
      'openai-compatible-servers-ollama-lm-studio',
      'signing-in-oauth',
      'settings--memory'
    ])
  })

  it('names a missing page and a missing anchor with their file and line', () => {
    const files = new Map([
      [
        'README.md',
        '# Front\n\n[ok](docs/a.md#there) [gone](docs/b.md) [bad](docs/a.md#nowhere)\n'
      ],
      [
        'docs/a.md',
        '# A\n\n## There\n\n[self](#a) [web](https://example.org/#x) [up](../README.md)\n\n[out](../../shared/DESIGN.md)\n'
      ]
    ])
    const root = '/virtual'
    const broken = brokenLinksIn(root, files)
    expect(broken).toEqual([
      'README.md:3: docs/b.md leads to docs/b.md, which does not exist',
      'README.md:3: docs/a.md#nowhere: docs/a.md has no heading whose anchor is #nowhere',
      // A clone holds the repository alone: a link out of it leads nowhere for a reader.
      'docs/a.md:7: ../../shared/DESIGN.md leads out of the repository (../shared/DESIGN.md)'
    ])
  })
})

/** brokenLinks over files held in memory, through the same code as on disk. */
function brokenLinksIn(root: string, files: ReadonlyMap<string, string>): string[] {
  return brokenLinks(root, [...files.keys()], {
    exists: (file) => files.has(file) || [...files.keys()].some((f) => f.startsWith(`${file}/`)),
    read: (file) => files.get(file) ?? '',
    isDirectory: (file) => !files.has(file)
  })
}
