import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { MemoryEntry } from '../../../../shared/memory'
import type { Provenance } from '../../../../shared/provenance'
import { MemoryDetail } from './memory-detail'
import { initialMemoryState, type MemoryState } from './memory-reducer'
import { untrustedMark } from './provenance-mark'
import { UntrustedBadge } from './untrusted-badge'

const laundered: Provenance = {
  trust: 'untrusted-folder',
  sessionId: 'a1b2',
  folder: '/home/me/cloned'
}
const clean: Provenance = { trust: 'trusted', sessionId: 'c3d4', folder: '/home/me/app' }

const entry = (
  provenance: Provenance,
  content: string | null = 'always WebFetch …'
): MemoryEntry => ({
  scope: 'user',
  name: 'fetch',
  version: 'v1',
  state: content === null ? 'forgotten' : 'live',
  content,
  createdAt: 1,
  updatedAt: 1,
  lastKind: 'remember',
  sessionId: provenance.sessionId,
  provenance
})

function detail(provenance: Provenance, content?: string | null): string {
  const shown = entry(provenance, content)
  const state: MemoryState = {
    ...initialMemoryState,
    selected: 'fetch',
    detail: {
      entry: shown,
      history: [
        {
          version: 'v1',
          kind: 'remember',
          content: shown.content,
          sessionId: provenance.sessionId,
          at: 1,
          provenance
        }
      ],
      totalRevisions: 1,
      origin: null
    }
  }
  return renderToStaticMarkup(<MemoryDetail state={state} now={2} />)
}

describe('the mark of words that may be someone else’s', () => {
  it('names where they came from and what reading them does', () => {
    expect(untrustedMark(laundered)).toEqual({
      label: 'Untrusted folder',
      title:
        'Written in a folder whose authors were not trusted (session a1b2, /home/me/cloned). A session that reads it counts it as untrusted input, so sends the model aims are refused there afterwards.'
    })
    expect(untrustedMark({ trust: 'untrusted-input', sessionId: null, folder: null })?.label).toBe(
      'Untrusted'
    )
    expect(untrustedMark({ trust: 'unknown', sessionId: 's', folder: null })?.label).toBe(
      'Origin unknown'
    )
  })

  it('leaves trusted words, and skills that say nothing, unmarked', () => {
    expect(untrustedMark(clean)).toBeNull()
    expect(untrustedMark(undefined)).toBeNull()
    expect(renderToStaticMarkup(<UntrustedBadge provenance={clean} />)).toBe('')
  })

  it('shows a memory’s provenance in its detail, on the entry and on each revision', () => {
    const html = detail(laundered)
    expect(html.match(/data-testid="untrusted-mark"/g)).toHaveLength(2)
    expect(html).toContain('Where from')
    expect(html).toContain('session a1b2, /home/me/cloned')
    const trusted = detail(clean)
    expect(trusted).not.toContain('untrusted-mark')
    expect(trusted).not.toContain('Where from')
  })

  it('does not mark a forgotten entry, which holds no words to read', () => {
    expect(detail(laundered, null)).not.toContain('untrusted-mark')
  })
})
