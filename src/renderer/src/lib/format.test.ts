import { describe, expect, it } from 'vitest'
import {
  baseName,
  formatBytes,
  formatDuration,
  formatRelative,
  formatUsage,
  prettyJson
} from './format'

describe('format', () => {
  it('formats sizes in bytes, KB and MB', () => {
    expect(formatBytes(1)).toBe('1 byte')
    expect(formatBytes(1000)).toBe('1,000 bytes')
    expect(formatBytes(12_595)).toBe('12.3 KB')
    expect(formatBytes(4 * 1024 * 1024)).toBe('4.0 MB')
  })

  it('formats usage with thousands separators', () => {
    expect(formatUsage({ inputTokens: 1234, outputTokens: 56, cachedTokens: 0 })).toBe(
      '1,234 in · 56 out · 0 cached'
    )
  })

  it('formats durations at three scales', () => {
    expect(formatDuration(120)).toBe('120 ms')
    expect(formatDuration(4200)).toBe('4.2 s')
    expect(formatDuration(42_000)).toBe('42 s')
    expect(formatDuration(65_000)).toBe('1 m 05 s')
  })

  it('formats relative times', () => {
    const now = Date.UTC(2025, 5, 15, 12)
    expect(formatRelative(now - 10_000, now)).toBe('just now')
    expect(formatRelative(now - 5 * 60_000, now)).toBe('5 min ago')
    expect(formatRelative(now - 3 * 3_600_000, now)).toBe('3 h ago')
    expect(formatRelative(now - 30 * 3_600_000, now)).toBe('yesterday')
    expect(formatRelative(now - 4 * 86_400_000, now)).toBe('4 days ago')
  })

  it('names folders by their last segment', () => {
    expect(baseName('/home/ana/proj/')).toBe('proj')
    expect(baseName('C:\\work\\site')).toBe('site')
    expect(baseName('/')).toBe('/')
  })

  it('pretty-prints JSON and survives cycles', () => {
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(prettyJson(cyclic)).toBe('[object Object]')
  })
})
