import { describe, expect, it } from 'vitest'
import { LatestOnly } from './latest-only'

describe('keeping only the newest answer', () => {
  it('drops an answer that arrives after a newer request was made', async () => {
    const latest = new LatestOnly()
    const shown: string[] = []
    const ask = (query: string, delay: number): Promise<void> => {
      const ticket = latest.begin()
      return new Promise<void>((resolve) => setTimeout(resolve, delay)).then(() => {
        if (latest.isNewest(ticket)) shown.push(query)
      })
    }
    // "c" is slow and answers last; "co" and then "cor" were typed meanwhile.
    await Promise.all([ask('c', 30), ask('co', 10), ask('cor', 0)])
    expect(shown).toEqual(['cor'])
  })

  it('drops everything in flight when told to', () => {
    const latest = new LatestOnly()
    const ticket = latest.begin()
    latest.drop()
    expect(latest.isNewest(ticket)).toBe(false)
  })
})
