import { describe, expect, it } from 'vitest'
import type { ElicitField, Elicitation } from '../../../../shared/elicitation'
import { draftContent, initialDraft } from './elicitation-form'
import {
  elicitationReducer,
  initialElicitationState,
  waitingIn,
  type ElicitationState
} from './elicitation-reducer'

const ask = (id: string, workspace = '/p'): Elicitation => ({
  elicitationId: id,
  workspace,
  server: 'notes',
  message: 'Name?',
  fields: []
})

describe('the elicitation store', () => {
  it('queues requests per project, oldest first, and drops each once settled', () => {
    let state: ElicitationState = initialElicitationState
    for (const e of [ask('a'), ask('b'), ask('x', '/other'), ask('a')]) {
      state = elicitationReducer(state, { type: 'asked', elicitation: e })
    }
    expect(waitingIn(state, '/p').map((e) => e.elicitationId)).toEqual(['a', 'b'])
    expect(waitingIn(state, null)).toEqual([])
    state = elicitationReducer(state, { type: 'refused', elicitationId: 'a', text: 'bad' })
    expect(state.error).toEqual({ elicitationId: 'a', text: 'bad' })
    // Editing another form leaves the sentence; editing this one clears it.
    expect(elicitationReducer(state, { type: 'edited', elicitationId: 'b' }).error).not.toBeNull()
    expect(elicitationReducer(state, { type: 'edited', elicitationId: 'a' }).error).toBeNull()
    state = elicitationReducer(state, { type: 'resolved', elicitationId: 'a' })
    expect(waitingIn(state, '/p').map((e) => e.elicitationId)).toEqual(['b'])
    expect(state.error).toBeNull()
    // A reload lists what still waits in that project, and leaves other projects' alone.
    state = elicitationReducer(state, { type: 'restored', workspace: '/p', elicitations: [] })
    expect(state.waiting.map((e) => e.elicitationId)).toEqual(['x'])
  })
})

describe('the form draft', () => {
  const fields: ElicitField[] = [
    {
      kind: 'text',
      name: 'n',
      label: 'N',
      description: null,
      required: true,
      format: null,
      minLength: null,
      maxLength: null,
      default: null
    },
    {
      kind: 'number',
      name: 'k',
      label: 'K',
      description: null,
      required: false,
      integer: true,
      minimum: null,
      maximum: null,
      default: 3
    },
    { kind: 'boolean', name: 'b', label: 'B', description: null, required: false, default: null },
    {
      kind: 'multi',
      name: 'm',
      label: 'M',
      description: null,
      required: false,
      options: [],
      minItems: null,
      maxItems: null,
      default: null
    }
  ]

  it('opens at the defaults and sends typed values, leaving empty fields out', () => {
    const draft = initialDraft(fields)
    expect(draft).toEqual({ n: '', k: '3', b: false, m: [] })
    expect(draftContent(fields, draft)).toEqual({ k: 3, b: false })
    // A number that does not parse goes as typed, so the main process names the field.
    expect(draftContent(fields, { ...draft, n: 'Ada', k: 'three' })).toEqual({
      n: 'Ada',
      k: 'three',
      b: false
    })
  })
})
