import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../../../shared/domain'
import { itemsToReveal } from './find-reveal'

const user = (text: string): { item: TranscriptItem } => ({
  item: { kind: 'user', id: text, text, at: 0 }
})
const reply = (text: string): { item: TranscriptItem } => ({
  item: { kind: 'assistant', id: text, turnId: 't', text, at: 0, streaming: false }
})

describe('itemsToReveal', () => {
  const items = [user('first about ZEBRA'), reply('nothing'), user('more'), reply('**zebra** done')]

  it('reaches back to the oldest item that mentions the query', () => {
    expect(itemsToReveal(items, 'zebra')).toBe(4)
    expect(itemsToReveal(items, 'more')).toBe(2)
  })

  it('reads through Markdown marks, as the transcript shows them', () => {
    expect(itemsToReveal([user('x'), reply('a **bold** word')], 'a bold word')).toBe(1)
  })

  it('asks for nothing when no item mentions it, or the query is blank', () => {
    expect(itemsToReveal(items, 'giraffe')).toBe(0)
    expect(itemsToReveal(items, '  ')).toBe(0)
    expect(itemsToReveal(items, '**')).toBe(0)
  })
})
