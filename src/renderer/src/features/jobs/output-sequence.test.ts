import { describe, expect, it } from 'vitest'
import {
  droppedNotice,
  sequenceBatch,
  sequenceSnapshot,
  startSequence,
  type Sequence
} from './output-sequence'

describe('output sequence', () => {
  it('writes the snapshot, then each later batch once, acknowledging batches only', () => {
    let seq: Sequence = startSequence
    const snap = sequenceSnapshot(seq, { data: 'hello ', seq: 4, droppedBytes: 0 })
    expect(snap).toMatchObject({ write: 'hello ', ack: 0 })
    seq = snap.next
    const b5 = sequenceBatch(seq, { data: 'world', seq: 5 })
    expect(b5).toMatchObject({ write: 'world', ack: 5 })
    const again = sequenceBatch(b5.next, { data: 'world', seq: 5 })
    expect(again).toMatchObject({ write: '', ack: 0 })
  })

  it('holds batches that arrive before the snapshot, and drops those it already has', () => {
    let seq: Sequence = startSequence
    for (const batch of [
      { data: 'old', seq: 3 },
      { data: 'new1', seq: 5 },
      { data: 'new2', seq: 6 }
    ]) {
      const step = sequenceBatch(seq, batch)
      expect(step.write).toBe('')
      seq = step.next
    }
    const snap = sequenceSnapshot(seq, { data: '...old', seq: 4, droppedBytes: 0 })
    expect(snap.write).toBe('...oldnew1new2')
    expect(snap.ack).toBe(8)
    expect(sequenceBatch(snap.next, { data: 'new2', seq: 6 }).write).toBe('')
    expect(sequenceBatch(snap.next, { data: 'next', seq: 7 }).write).toBe('next')
  })

  it('says how much of the start is no longer kept', () => {
    const snap = sequenceSnapshot(startSequence, {
      data: 'tail',
      seq: 0,
      droppedBytes: 3 * 1024 * 1024
    })
    expect(snap.write).toBe('\x1b[2m… 3.0 MB of earlier output not kept\x1b[0m\r\ntail')
    expect(droppedNotice(0)).toBe('')
  })
})
