/** One `job.output` batch, or the start of a follow (`jobs.output`). */
export interface Batch {
  data: string
  seq: number
}

export interface Snapshot extends Batch {
  droppedBytes: number
}

/**
 * Where one terminal is in following a job. Batches may arrive before the snapshot that they
 * continue (events and answers share the wire, but the answer is sent last): those wait, and
 * the ones the snapshot already holds are dropped.
 */
export interface Sequence {
  phase: 'waiting' | 'live'
  lastSeq: number
  queued: Batch[]
}

/** What to do after a step: text to write to the terminal, and characters to acknowledge once written. */
export interface Step {
  next: Sequence
  write: string
  ack: number
}

export const startSequence: Sequence = { phase: 'waiting', lastSeq: 0, queued: [] }

export function sequenceBatch(sequence: Sequence, batch: Batch): Step {
  if (sequence.phase === 'waiting') {
    return { next: { ...sequence, queued: [...sequence.queued, batch] }, write: '', ack: 0 }
  }
  if (batch.seq <= sequence.lastSeq) return { next: sequence, write: '', ack: 0 }
  return { next: { ...sequence, lastSeq: batch.seq }, write: batch.data, ack: batch.data.length }
}

export function sequenceSnapshot(sequence: Sequence, snapshot: Snapshot): Step {
  let write = droppedNotice(snapshot.droppedBytes) + snapshot.data
  let ack = 0
  let lastSeq = snapshot.seq
  for (const batch of sequence.queued) {
    if (batch.seq <= lastSeq) continue
    write += batch.data
    ack += batch.data.length
    lastSeq = batch.seq
  }
  return { next: { phase: 'live', lastSeq, queued: [] }, write, ack }
}

/** A dim first line saying that the start of the output is no longer kept. */
export function droppedNotice(droppedBytes: number): string {
  if (droppedBytes <= 0) return ''
  return `\x1b[2m… ${formatSize(droppedBytes)} of earlier output not kept\x1b[0m\r\n`
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
