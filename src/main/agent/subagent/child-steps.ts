import type { ChildStep, TranscriptItem } from '../../../shared/domain'
import { outputText } from '../../tools/tool'

/** A child's transcript as its parent's card shows it: replies and calls, in order. */
export class ChildSteps {
  private readonly steps: ChildStep[] = []
  private readonly positions = new Map<string, number>()

  constructor(private readonly changed: (steps: ChildStep[]) => void) {}

  add(item: TranscriptItem): void {
    const step = toStep(item)
    if (!step) return
    const at = this.positions.get(step.id)
    if (at === undefined) {
      this.positions.set(step.id, this.steps.length)
      this.steps.push(step)
    } else {
      this.steps[at] = step
    }
    this.changed(this.list())
  }

  list(): ChildStep[] {
    // An empty streaming reply is noise in a nested transcript.
    return this.steps.filter((s) => s.kind !== 'text' || s.text.trim() !== '')
  }
}

function toStep(item: TranscriptItem): ChildStep | null {
  if (item.kind === 'assistant') return { kind: 'text', id: item.id, text: item.text }
  if (item.kind !== 'tool') return null
  const { call } = item
  return {
    kind: 'call',
    id: call.id,
    name: call.name,
    input: call.input,
    state: call.state,
    refusedBy: call.refusedBy,
    output: call.output ? outputText(call.output.content) : null,
    ...(call.card ? { summary: call.card.summary } : {})
  }
}
