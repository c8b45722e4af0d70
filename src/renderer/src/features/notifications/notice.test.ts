import { describe, expect, it } from 'vitest'
import type { AnyEvent } from '../../../../shared/contract'
import { noticeFor, notificationsOn, shouldNotify } from './notice'

const titles = (id: string): string | null =>
  id === 's1' ? 'Fix the login bug' : id === 's2' ? '' : null

const usage = { inputTokens: 1, outputTokens: 1 }

function event(value: unknown): AnyEvent {
  return value as AnyEvent
}

describe('noticeFor', () => {
  it('says a turn ended, under the session title', () => {
    const notice = noticeFor(
      event({
        event: 'turn.completed',
        payload: { sessionId: 's1', turnId: 't', usage, stopReason: 'end_turn' }
      }),
      titles
    )
    expect(notice).toMatchObject({ sessionId: 's1', title: 'Fix the login bug' })
    expect(notice?.body).toMatch(/finished/i)
  })

  it('says an approval or a question waits, and what for', () => {
    const approval = noticeFor(
      event({ event: 'approval.requested', payload: { sessionId: 's2', tool: 'Write' } }),
      titles
    )
    expect(approval).toMatchObject({ sessionId: 's2', title: 'New session' })
    expect(approval?.body).toContain('Write')
    const question = noticeFor(
      event({ event: 'question.asked', payload: { sessionId: 's1', question: 'Which port?' } }),
      titles
    )
    expect(question?.body).toContain('Which port?')
  })

  it('says a turn failed, with the error cut to a line', () => {
    const notice = noticeFor(
      event({
        event: 'turn.failed',
        payload: { sessionId: 's1', turnId: 't', error: `${'x'.repeat(500)}\nmore` }
      }),
      titles
    )
    expect(notice?.body.length).toBeLessThanOrEqual(160)
    expect(notice?.body).not.toContain('\n')
  })

  it('stays quiet for a turn the person stopped, other events and other folders', () => {
    const stopped = { sessionId: 's1', turnId: 't', usage, stopReason: 'cancelled' }
    expect(noticeFor(event({ event: 'turn.completed', payload: stopped }), titles)).toBeNull()
    const elsewhere = { sessionId: 'other', turnId: 't', usage, stopReason: 'end_turn' }
    expect(noticeFor(event({ event: 'turn.completed', payload: elsewhere }), titles)).toBeNull()
    expect(
      noticeFor(event({ event: 'turn.started', payload: { sessionId: 's1', turnId: 't' } }), titles)
    ).toBeNull()
  })
})

describe('shouldNotify', () => {
  it('notifies only when the window is hidden or not focused, and the setting allows it', () => {
    expect(shouldNotify(true, { hidden: true, focused: false })).toBe(true)
    expect(shouldNotify(true, { hidden: false, focused: false })).toBe(true)
    expect(shouldNotify(true, { hidden: false, focused: true })).toBe(false)
    expect(shouldNotify(false, { hidden: true, focused: false })).toBe(false)
  })
})

describe('notificationsOn', () => {
  it('is on unless the settings file turns it off', () => {
    expect(notificationsOn({})).toBe(true)
    expect(notificationsOn({ notifications: { enabled: true } })).toBe(true)
    expect(notificationsOn({ notifications: { enabled: false } })).toBe(false)
    expect(notificationsOn({ notifications: 'garbage' })).toBe(true)
  })
})
