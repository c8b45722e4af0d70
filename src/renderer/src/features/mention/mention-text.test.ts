import { describe, expect, it } from 'vitest'
import { insertMention, mentionAt, mentionText } from './mention-text'

describe('finding the `@query` being typed', () => {
  it('opens on an @ at the start, after a space or a bracket, up to the caret', () => {
    expect(mentionAt('@', 1)).toEqual({ start: 0, end: 1, query: '' })
    expect(mentionAt('look at @src/co', 15)).toEqual({ start: 8, end: 15, query: 'src/co' })
    expect(mentionAt('line one\n@rea', 13)).toEqual({ start: 9, end: 13, query: 'rea' })
    expect(mentionAt('(@cor', 5)).toEqual({ start: 1, end: 5, query: 'cor' })
  })

  it('takes the rest of the word after the caret into what is replaced', () => {
    expect(mentionAt('see @srcmain now', 7)).toEqual({ start: 4, end: 12, query: 'sr' })
  })

  it('does not open in the middle of a word, such as an email address', () => {
    expect(mentionAt('mail me@example.com', 19)).toBeNull()
    expect(mentionAt('a@', 2)).toBeNull()
  })

  it('closes once a space follows, or the caret is elsewhere', () => {
    expect(mentionAt('@src done', 9)).toBeNull()
    expect(mentionAt('@src ', 5)).toBeNull()
    expect(mentionAt('hello @src', 3)).toBeNull()
    expect(mentionAt('', 0)).toBeNull()
  })
})

describe('the mention a pick inserts', () => {
  it('is the path after @, a folder with a trailing slash', () => {
    expect(mentionText('src/main/core.ts', 'file')).toBe('@src/main/core.ts')
    expect(mentionText('src/main', 'folder')).toBe('@src/main/')
  })

  it('quotes a path with spaces or quotes, escaping what would end it', () => {
    expect(mentionText('my docs/read me.md', 'file')).toBe('@"my docs/read me.md"')
    expect(mentionText('odd "name".txt', 'file')).toBe('@"odd \\"name\\".txt"')
    expect(mentionText('back\\slash tab\t.md', 'file')).toBe('@"back\\\\slash tab\t.md"')
  })

  it('replaces the typed @query and leaves the caret after a space', () => {
    const text = 'look at @src/co please'
    const range = mentionAt(text, 15)
    expect(range).not.toBeNull()
    if (!range) return
    expect(insertMention(text, range, '@src/main/core.ts')).toEqual({
      text: 'look at @src/main/core.ts please',
      caret: 25
    })
    expect(insertMention('@co', { start: 0, end: 3, query: 'co' }, '@core.ts')).toEqual({
      text: '@core.ts ',
      caret: 9
    })
  })
})
