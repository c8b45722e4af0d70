import { describe, expect, it } from 'vitest'
import { callNames, calls, eventNames, events, slices } from './contract'

// The merged contract spreads the slices: a name declared in two of them would be answered by
// whichever came last, silently. Each name belongs to exactly one slice.
describe('the contract slices', () => {
  it('declare every call and every event exactly once', () => {
    const sliceCalls = Object.values(slices).flatMap((slice) => Object.keys(slice.calls))
    const sliceEvents = Object.values(slices).flatMap((slice) => Object.keys(slice.events))
    expect(sliceCalls).toHaveLength(new Set(sliceCalls).size)
    expect(sliceEvents).toHaveLength(new Set(sliceEvents).size)
    expect(new Set(sliceCalls)).toEqual(new Set(callNames))
    expect(new Set(sliceEvents)).toEqual(new Set(eventNames))
  })

  it('give the names from the schemas', () => {
    expect(callNames).toEqual(Object.keys(calls))
    expect(eventNames).toEqual(Object.keys(events))
    expect(callNames).toContain('session.send')
    expect(eventNames).toContain('job.output')
  })
})
