import { describe, expect, it } from 'vitest'
import { snippetOf } from './session-store'

/** The snippet without its ellipses. */
const inner = (snippet: string): string => snippet.replace(/^…|…$/g, '')

describe('snippetOf', () => {
  it('shows Markdown as the plain text the transcript shows', () => {
    const text = [
      '# Plan',
      '',
      'Use **bold** and _soft_ words, `inline code` and a [link](https://example.com/x).',
      '',
      '```ts',
      'const answer = 42',
      '```',
      '',
      '- one item',
      '> a quote',
      '![diagram](img.png)'
    ].join('\n')
    const snippet = snippetOf(text, 'answer')
    expect(snippet).not.toMatch(/[*`#>[\]]|\]\(|https:/)
    expect(snippet).toContain('const answer = 42')
    expect(snippetOf(text, 'bold')).toContain('Use bold and soft words, inline code and a link')
    expect(snippetOf(text, 'quote')).toContain('one item a quote diagram')
  })

  it('keeps snake_case and arithmetic as they are', () => {
    expect(snippetOf('call read_file_v2 with 2 * 3 * 4', 'read_file')).toBe(
      'call read_file_v2 with 2 * 3 * 4'
    )
  })

  it('holds the hit whole, and cuts around it only between words', () => {
    const before = 'alpha '.repeat(40)
    const after = ' omega'.repeat(40)
    const snippet = snippetOf(`${before}the needle in the haystack${after}`, 'needle in the')
    expect(snippet).toContain('needle in the')
    expect(snippet.startsWith('…')).toBe(true)
    expect(snippet.endsWith('…')).toBe(true)
    for (const word of inner(snippet).trim().split(' ')) {
      expect(['alpha', 'omega', 'the', 'needle', 'in', 'haystack']).toContain(word)
    }
  })

  it('keeps a hit longer than the whole snippet whole', () => {
    const query = 'x'.repeat(400)
    expect(snippetOf(`start ${query} end`, query)).toContain(query)
  })

  it('finds the hit where lowercasing changes lengths before it', () => {
    // "İ" lowercases to two code units: an offset found in the lowercased text lands one late.
    const text = `${'İ'.repeat(100)} the target word`
    expect(snippetOf(text, 'target')).toContain('target')
    expect(snippetOf(text, 'TARGET')).toContain('target')
  })

  it('finds a hit written across Markdown marks', () => {
    expect(snippetOf('press **Save** now', 'Save')).toBe('press Save now')
    // The search matched the stored text, marks and all; the snippet still shows that hit.
    expect(snippetOf('run `npm test` first', '`npm test`')).toContain('npm test')
  })

  it('never splits a character in two', () => {
    const text = `${'😀'.repeat(100)} hit ${'😀'.repeat(100)}`
    const snippet = snippetOf(text, 'hit')
    expect(snippet).toContain('hit')
    expect(snippet).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
    )
  })
})
