import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../../../shared/domain'
import { itemsWithHits, MAX_PINNED } from './find-reveal'

const user = (text: string): { item: TranscriptItem } => ({
  item: { kind: 'user', id: text, text, at: 0 }
})
const reply = (text: string): { item: TranscriptItem } => ({
  item: { kind: 'assistant', id: text, turnId: 't', text, at: 0, streaming: false }
})

describe('itemsWithHits', () => {
  const items = [user('first about ZEBRA'), reply('nothing'), user('more'), reply('**zebra** done')]

  it('names every item that mentions the query, oldest first', () => {
    expect(itemsWithHits(items, 'zebra')).toEqual([0, 3])
    expect(itemsWithHits(items, 'giraffe')).toEqual([])
  })

  it('reads through Markdown marks, as the transcript shows them', () => {
    expect(itemsWithHits([user('x'), reply('a **bold** word')], 'a bold word')).toEqual([1])
    expect(itemsWithHits(items, '**')).toEqual([])
  })

  it('names none for a blank query', () => {
    expect(itemsWithHits(items, '  ')).toEqual([])
  })

  it('keeps the newest items when more hold a hit than can be rendered at once', () => {
    const many = Array.from({ length: MAX_PINNED + 50 }, (_, i) => user(`hit ${i}`))
    const hits = itemsWithHits(many, 'hit')
    expect(hits).toHaveLength(MAX_PINNED)
    expect(hits.at(-1)).toBe(MAX_PINNED + 49)
    expect(hits[0]).toBe(50)
  })
})
