import { describe, expect, it } from 'vitest'
import { imagesRefusal, type Attachment } from '../../../../shared/attachments'
import type { ModelInfo } from '../../../../shared/models'
import {
  attachmentsReducer,
  imagesProblemFor,
  initialAttachments,
  toBase64
} from './attachments-model'

const image: Attachment = { kind: 'image', name: 'a.png', mediaType: 'image/png', data: 'iVBORw==' }
const file: Attachment = { kind: 'file', path: 'src/a.ts' }

describe('the box’s attachments', () => {
  it('adds, keeps a file once, and removes by place', () => {
    let state = attachmentsReducer(initialAttachments, { type: 'added', items: [image, file] })
    state = attachmentsReducer(state, { type: 'added', items: [file] })
    expect(state.items).toEqual([image, file])
    state = attachmentsReducer(state, { type: 'removed', index: 0 })
    expect(state).toEqual({ items: [file], error: null })
  })

  it('keeps a resource of a server once, and the same URI of another server apart', () => {
    const hello: Attachment = { kind: 'resource', server: 'docs', uri: 'note://hello' }
    const other: Attachment = { kind: 'resource', server: 'wiki', uri: 'note://hello' }
    let state = attachmentsReducer(initialAttachments, { type: 'added', items: [hello, file] })
    state = attachmentsReducer(state, { type: 'added', items: [{ ...hello }, other] })
    expect(state.items).toEqual([hello, file, other])
    const many = Array.from({ length: 10 }, (_, i): Attachment => ({ ...hello, uri: `n://${i}` }))
    const over = attachmentsReducer(state, { type: 'added', items: many })
    expect(over.items).toEqual(state.items)
    expect(over.error).toMatch(/at most 10/)
  })

  it('refuses what passes a limit with its sentence and keeps what was there', () => {
    const eight = Array.from({ length: 8 }, () => image)
    const full = attachmentsReducer(initialAttachments, { type: 'added', items: eight })
    const over = attachmentsReducer(full, { type: 'added', items: [image] })
    expect(over.items).toHaveLength(8)
    expect(over.error).toMatch(/at most 8/)
  })
})

describe('images for the model the message goes to', () => {
  const models: ModelInfo[] = [
    { providerId: 'p', model: 'eyes', images: true },
    { providerId: 'p', model: 'blind', images: false }
  ]
  it('are refused before sending for a model listed without images', () => {
    expect(imagesProblemFor([image], models, { providerId: 'p', model: 'blind' })).toBe(
      imagesRefusal('blind')
    )
    expect(imagesProblemFor([image], models, { providerId: 'p', model: 'eyes' })).toBeNull()
    expect(imagesProblemFor([file], models, { providerId: 'p', model: 'blind' })).toBeNull()
    // Not listed: main decides, and says why.
    expect(imagesProblemFor([image], models, { providerId: 'p', model: 'other' })).toBeNull()
  })
})

it('encodes bytes as base64 in slices, large ones too', () => {
  const bytes = new Uint8Array(100_000).map((_, i) => i % 256)
  const decoded = Uint8Array.from(atob(toBase64(bytes)), (c) => c.charCodeAt(0))
  expect(decoded).toEqual(bytes)
})
