import { describe, expect, it } from 'vitest'
import type { ApprovalRequest } from '../../../../shared/approvals'
import { approvalsReducer, initialApprovalsState, visibleApprovals } from './approvals-reducer'
import { capabilityBadges } from './describe-approval'

function request(approvalId: string, sessionId = 's1'): ApprovalRequest {
  return {
    approvalId,
    sessionId,
    callId: `c-${approvalId}`,
    tool: 'Write',
    input: { path: 'notes.md', content: 'a\nb' },
    readOnly: false,
    capabilities: { privateData: false, untrustedInput: false, egress: 'none', destructive: true },
    sentence: 'Write 2 lines to notes.md, creating it or replacing what is there.',
    changes: 'files'
  }
}

describe('approvalsReducer', () => {
  it('queues requests once, in order', () => {
    let state = approvalsReducer(initialApprovalsState, {
      type: 'requested',
      request: request('a')
    })
    state = approvalsReducer(state, { type: 'requested', request: request('b') })
    state = approvalsReducer(state, { type: 'requested', request: request('a') })
    expect(state.queue.map((r) => r.approvalId)).toEqual(['a', 'b'])
  })

  it('removes a resolved request and clears its pending response', () => {
    let state = approvalsReducer(initialApprovalsState, {
      type: 'requested',
      request: request('a')
    })
    state = approvalsReducer(state, { type: 'respond-started', approvalId: 'a' })
    state = approvalsReducer(state, { type: 'resolved', approvalId: 'a' })
    expect(state).toEqual(initialApprovalsState)
  })

  it('keeps the request when responding fails', () => {
    let state = approvalsReducer(initialApprovalsState, {
      type: 'requested',
      request: request('a')
    })
    state = approvalsReducer(state, { type: 'respond-started', approvalId: 'a' })
    state = approvalsReducer(state, { type: 'respond-failed', approvalId: 'a', error: 'gone' })
    expect(state).toMatchObject({ respondingId: null, error: 'gone' })
    expect(state.queue).toHaveLength(1)
  })

  it('clears the pending response once the answer is taken, so the next can be sent', () => {
    let state = approvalsReducer(initialApprovalsState, {
      type: 'requested',
      request: request('a')
    })
    state = approvalsReducer(state, { type: 'requested', request: request('b') })
    state = approvalsReducer(state, { type: 'respond-started', approvalId: 'a' })
    state = approvalsReducer(state, { type: 'respond-done', approvalId: 'a' })
    expect(state.respondingId).toBeNull()
    // Still listed until `approval.resolved` says so, but not offered again.
    expect(visibleApprovals(state, new Set(['s1'])).map((r) => r.approvalId)).toEqual(['b'])
  })

  it('closes the dialog for review and opens it again; nothing waiting ends the review', () => {
    let state = approvalsReducer(initialApprovalsState, {
      type: 'requested',
      request: request('a')
    })
    state = approvalsReducer(state, { type: 'review-started' })
    expect(state.reviewing).toBe(true)
    state = approvalsReducer(state, { type: 'requested', request: request('b') })
    expect(state.reviewing).toBe(true)
    state = approvalsReducer(state, { type: 'review-ended' })
    expect(state.reviewing).toBe(false)
    state = approvalsReducer(state, { type: 'review-started' })
    state = approvalsReducer(state, { type: 'resolved', approvalId: 'a' })
    state = approvalsReducer(state, { type: 'resolved', approvalId: 'b' })
    expect(state).toEqual(initialApprovalsState)
  })

  it('restores a session snapshot without touching other sessions', () => {
    let state = approvalsReducer(initialApprovalsState, {
      type: 'requested',
      request: request('x', 's2')
    })
    state = approvalsReducer(state, { type: 'requested', request: request('old', 's1') })
    state = approvalsReducer(state, { type: 'restored', sessionId: 's1', pending: [request('a')] })
    expect(state.queue.map((r) => r.approvalId)).toEqual(['x', 'a'])
  })

  it('shows only the visible project’s requests', () => {
    let state = approvalsReducer(initialApprovalsState, {
      type: 'requested',
      request: request('x', 's2')
    })
    state = approvalsReducer(state, { type: 'requested', request: request('a', 's1') })
    expect(visibleApprovals(state, new Set(['s1'])).map((r) => r.approvalId)).toEqual(['a'])
  })
})

describe('capabilityBadges', () => {
  it('labels capabilities', () => {
    const labels = capabilityBadges(
      false,
      {
        privateData: true,
        untrustedInput: false,
        egress: 'chosen',
        destructive: true
      },
      'files'
    ).map((b) => b.label)
    expect(labels).toEqual(['Changes files', 'Destructive', 'Private data', 'Egress: chosen'])
  })
})
