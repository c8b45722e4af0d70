// What the model gets of the person's images: the pictures for a model that takes them, a line
// saying they are there for one that does not (a session can change models after sending one),
// and a token estimate that counts an image as an image, not as its base64 text.
import { describe, expect, it } from 'vitest'
import { attachedFileLine } from '../../shared/attachments'
import type { ChatMessage } from '../providers/provider'
import { promptTokens } from './context-limit'
import { historyForModel, userChatMessage } from './user-message'

const data = Buffer.alloc(1024 * 1024).toString('base64')
const withImage = userChatMessage('what is this?', [
  { kind: 'image', name: 'a.png', mediaType: 'image/png', data },
  { kind: 'file', path: 'src/a.ts' }
])

describe('the person’s images in the history', () => {
  it('are kept, the same string and not a copy, for a model that takes images', () => {
    const history: ChatMessage[] = [withImage]
    expect(historyForModel(history, true)).toBe(history)
    expect(withImage.role === 'user' && withImage.images?.[0]?.data).toBe(data)
  })

  it('become a line for a model that does not take images, and nothing else changes', () => {
    const reply: ChatMessage = { role: 'assistant', text: 'ok', toolCalls: [] }
    const plain: ChatMessage = { role: 'user', text: 'and this?' }
    const shown = historyForModel([withImage, reply, plain], false)
    expect(shown).toEqual([
      {
        role: 'user',
        text: `what is this?\n\n${attachedFileLine('src/a.ts')}\n\n[1 image not shown: this model does not take images]`
      },
      reply,
      plain
    ])
  })
})

describe('the prompt estimate', () => {
  it('counts an image as about what a model charges for one, not its megabyte of base64', () => {
    const tokens = promptTokens('', [withImage], [])
    expect(tokens).toBeGreaterThan(1000)
    expect(tokens).toBeLessThan(3000)
  })
})
