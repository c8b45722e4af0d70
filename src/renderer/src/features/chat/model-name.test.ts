import { describe, expect, it } from 'vitest'
import { shortModelName } from './model-name'

describe('shortModelName', () => {
  it('keeps a plain model name whole', () => {
    expect(shortModelName('fake-model')).toBe('fake-model')
    expect(shortModelName('gpt-4o-mini')).toBe('gpt-4o-mini')
  })

  it('drops a routing prefix and a release date, which the title still shows', () => {
    expect(shortModelName('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet')
    expect(shortModelName('gpt-4o-2024-08-06')).toBe('gpt-4o')
    expect(shortModelName('anthropic/claude-sonnet-4@20250514')).toBe('claude-sonnet-4')
    expect(shortModelName('models/gemini-2.0-flash')).toBe('gemini-2.0-flash')
  })

  it('never shortens a name to nothing', () => {
    expect(shortModelName('20241022')).toBe('20241022')
    expect(shortModelName('org/')).toBe('org/')
    expect(shortModelName('')).toBe('')
  })
})
