import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ToolDisplay } from '../../shared/domain'
import { throttledProgress } from './mcp-tool'

afterEach(() => {
  vi.useRealTimers()
})

const report = (progress: number) => ({ progress, total: 1000, message: `item ${progress}` })

describe('progress on a card', () => {
  it('repaints once per interval with the newest report, however many a server sends', () => {
    vi.useFakeTimers()
    const shown: ToolDisplay[] = []
    const reporter = throttledProgress((d) => shown.push(d), 200)
    for (let i = 1; i <= 1000; i++) reporter.report(report(i))
    // The first at once, so a call that reports once is seen; the burst's last at the interval.
    expect(shown).toEqual([{ kind: 'progress', ...report(1) }])
    vi.advanceTimersByTime(200)
    expect(shown).toEqual([
      { kind: 'progress', ...report(1) },
      { kind: 'progress', ...report(1000) }
    ])
    vi.advanceTimersByTime(1000)
    expect(shown).toHaveLength(2)
  })

  it('shows nothing once the call has ended', () => {
    vi.useFakeTimers()
    const shown: ToolDisplay[] = []
    const reporter = throttledProgress((d) => shown.push(d), 200)
    reporter.report(report(1))
    reporter.report(report(2))
    reporter.stop()
    vi.advanceTimersByTime(1000)
    expect(shown).toEqual([{ kind: 'progress', ...report(1) }])
  })
})
