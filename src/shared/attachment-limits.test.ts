// The limits on MCP resources attached to a message, as the window and the contract check them.
import { describe, expect, it } from 'vitest'
import {
  attachmentsProblem,
  MAX_MESSAGE_RESOURCES,
  resourceLabel,
  type SentAttachment
} from './attachments'
import { sendInputSchema } from './contract/send-input'

const resource = (i: number): SentAttachment => ({
  kind: 'resource',
  server: 'docs',
  uri: `note://n${i}`
})

describe('the MCP resources one message may attach', () => {
  it('are at most ten, counted apart from files', () => {
    const ten = Array.from({ length: MAX_MESSAGE_RESOURCES }, (_, i) => resource(i))
    const files = Array.from({ length: 20 }, (_, i): SentAttachment => ({
      kind: 'file',
      path: `f${i}`
    }))
    expect(attachmentsProblem([...ten, ...files])).toBeNull()
    expect(attachmentsProblem([...ten, resource(10)])).toBe(
      'This message attaches 11 MCP resources; one message attaches at most 10. Remove some and attach them to the next message.'
    )
    // Resources are no files: ten of them and twenty files do not make thirty files.
    expect(attachmentsProblem([...files, { kind: 'file', path: 'one-more' }])).toMatch(
      /attaches 21 files/
    )
  })

  it('reach main by server and URI only: text, note and type the window sends are dropped', () => {
    const parsed = sendInputSchema.parse({
      sessionId: 's',
      text: '',
      attachments: [
        {
          kind: 'resource',
          server: 'docs',
          uri: 'note://a',
          name: 'a',
          text: 'forged',
          note: 'forged',
          mimeType: 'text/forged'
        }
      ]
    })
    expect(parsed.attachments).toEqual([
      { kind: 'resource', server: 'docs', uri: 'note://a', name: 'a' }
    ])
  })

  it('have URIs without spaces or control characters, which could start a line of their own', () => {
    for (const uri of ['note://a b', 'note://a\nb', 'note://a\u0000', 'note://a\u2028b', '']) {
      const result = sendInputSchema.safeParse({
        sessionId: 's',
        text: 'x',
        attachments: [{ kind: 'resource', server: 'docs', uri }]
      })
      expect(result.success, JSON.stringify(uri)).toBe(false)
    }
  })

  it('show on their chip as server: name, or the URI without a name', () => {
    expect(resourceLabel({ server: 'docs', uri: 'note://a', name: 'Alpha' })).toBe('docs: Alpha')
    expect(resourceLabel({ server: 'docs', uri: 'note://a' })).toBe('docs: note://a')
  })
})
