// Images returned by a tool (Read of a picture) must reach the model in the form each API
// accepts: inside Anthropic's tool_result, and after OpenAI's tool messages, which hold only text.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeModelServer } from '../../../testing/fake-model-server'
import type { FakeModelServer } from '../../../testing/fake-model-server'
import { AnthropicProvider } from './anthropic-provider'
import { modelSupportsImages } from './model-capabilities'
import { OpenAIProvider } from './openai-provider'
import type { ChatMessage, Provider } from './provider'

const pixel = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64')

const history: ChatMessage[] = [
  { role: 'user', text: 'what is in logo.png?' },
  {
    role: 'assistant',
    text: '',
    toolCalls: [
      { id: 'call_img', name: 'Read', input: '{"path":"logo.png"}' },
      { id: 'call_txt', name: 'Read', input: '{"path":"a.txt"}' }
    ]
  },
  {
    role: 'tool',
    results: [
      {
        callId: 'call_img',
        name: 'Read',
        content: [
          { type: 'text', text: '`logo.png` is a PNG image, 1×1, 67 bytes' },
          { type: 'image', mediaType: 'image/png', data: pixel }
        ],
        isError: false
      },
      { callId: 'call_txt', name: 'Read', content: [{ type: 'text', text: 'hi' }], isError: false }
    ]
  }
]

let fake: FakeModelServer
beforeEach(async () => {
  fake = await startFakeModelServer({ script: [{ text: 'a logo' }] })
})
afterEach(async () => {
  await fake.close()
})

async function send(provider: Provider): Promise<unknown[]> {
  await provider.stream(
    {
      model: 'fake-model',
      system: 'be brief',
      messages: history,
      tools: [],
      maxTokens: 100,
      signal: new AbortController().signal
    },
    () => {}
  )
  const body = fake.requests.at(-1)?.body as { messages: unknown[] }
  return body.messages
}

describe('image tool results on the wire', () => {
  it('OpenAI: the tool messages stay text and the image follows them in a user message', async () => {
    const provider = new OpenAIProvider({
      id: 'o',
      flavour: 'openai-compatible',
      baseURL: fake.openaiBaseUrl,
      apiKey: 'k'
    })
    const messages = await send(provider)
    expect(messages.slice(-3)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_img',
        content: '`logo.png` is a PNG image, 1×1, 67 bytes\n[image: image/png]'
      },
      { role: 'tool', tool_call_id: 'call_txt', content: 'hi' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The image from tool call call_img:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${pixel}` } }
        ]
      }
    ])
  })

  it('OpenAI: no extra message when no result holds an image', async () => {
    const provider = new OpenAIProvider({
      id: 'o',
      flavour: 'openai-compatible',
      baseURL: fake.openaiBaseUrl,
      apiKey: 'k'
    })
    const textOnly: ChatMessage[] = [
      ...history.slice(0, 2),
      {
        role: 'tool',
        results: [
          {
            callId: 'call_img',
            name: 'Read',
            content: [{ type: 'text', text: 'a' }],
            isError: false
          },
          {
            callId: 'call_txt',
            name: 'Read',
            content: [{ type: 'text', text: 'b' }],
            isError: false
          }
        ]
      }
    ]
    await provider.stream(
      {
        model: 'fake-model',
        system: '',
        messages: textOnly,
        tools: [],
        maxTokens: 100,
        signal: new AbortController().signal
      },
      () => {}
    )
    const body = fake.requests.at(-1)?.body as { messages: { role: string }[] }
    expect(body.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool'
    ])
  })

  it('Anthropic: the image is a base64 block inside the tool_result', async () => {
    // Without cache marks, so the blocks compare as the image encoding alone makes them.
    const provider = new AnthropicProvider({
      id: 'a',
      baseURL: fake.anthropicBaseUrl,
      apiKey: 'k',
      promptCache: 'off'
    })
    const messages = await send(provider)
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_img',
          is_error: false,
          content: [
            { type: 'text', text: '`logo.png` is a PNG image, 1×1, 67 bytes' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pixel } }
          ]
        },
        {
          type: 'tool_result',
          tool_use_id: 'call_txt',
          is_error: false,
          content: [{ type: 'text', text: 'hi' }]
        }
      ]
    })
  })
})

describe('modelSupportsImages', () => {
  it('knows the vision families by name, with or without a vendor prefix', () => {
    for (const model of [
      'claude-3-5-sonnet-20241022',
      'claude-sonnet-4-5',
      'claude-opus-4-1',
      'gpt-4o-mini',
      'gpt-4.1',
      'gpt-5',
      'o3',
      'o4-mini',
      'openai/gpt-4o',
      'llava:13b',
      'qwen2.5vl:7b',
      'qwen2-vl-7b-instruct',
      'gemma3:12b',
      'llama3.2-vision'
    ]) {
      expect(modelSupportsImages('openai-compatible', model), model).toBe(true)
    }
  })

  it('says no for text-only models', () => {
    for (const model of [
      'llama3.2',
      'o3-mini',
      'o1-mini',
      'gpt-3.5-turbo',
      'qwen2.5-coder',
      'gemma3:1b'
    ]) {
      expect(modelSupportsImages('openai-compatible', model), model).toBe(false)
    }
    expect(modelSupportsImages('anthropic', 'claude-2.1')).toBe(false)
  })

  it('lets the provider setting decide, in both directions', () => {
    expect(
      modelSupportsImages('openai-compatible', 'my-vision', { image_models: ['my-vision'] })
    ).toBe(true)
    expect(modelSupportsImages('openai', 'gpt-4o', { image_models: [] })).toBe(false)
  })
})
