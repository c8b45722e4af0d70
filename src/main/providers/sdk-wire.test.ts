// Proves the e2e fake model server speaks the real wire formats: the official SDKs, with no app
// code in between, must read its streams, tool calls, usage, model lists and errors unchanged.
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  exhaustedText,
  gate,
  latestToolResults,
  startFakeModelServer
} from '../../../testing/fake-model-server'
import type { FakeModelServer } from '../../../testing/fake-model-server'

const key = 'sk-fake-test-key'
const twoCalls = [
  { id: 'call_read', name: 'read_file', input: { path: 'notes/a.md', limit: 20 } },
  {
    id: 'call_write',
    name: 'write_file',
    input: { path: 'b.txt', content: 'line "one"\nline two' }
  }
]
const toolSchema = { type: 'object', properties: { path: { type: 'string' } } } as const

let fake: FakeModelServer

beforeEach(async () => {
  fake = await startFakeModelServer({ requireKey: key, models: ['fake-small', 'fake-large'] })
})

afterEach(async () => {
  await fake.close()
})

function openai(apiKey = key): OpenAI {
  return new OpenAI({ apiKey, baseURL: fake.openaiBaseUrl, maxRetries: 0 })
}

function anthropic(apiKey = key): Anthropic {
  return new Anthropic({ apiKey, baseURL: fake.anthropicBaseUrl, maxRetries: 0 })
}

describe('OpenAI Chat Completions wire format', () => {
  it('streams text in several chunks that add up to the scripted reply', async () => {
    fake.setScript([{ text: 'Hello from the fake model, streamed in pieces.' }])
    const stream = await openai().chat.completions.create({
      model: 'fake-small',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true
    })
    const pieces: string[] = []
    let finish: string | null = null
    for await (const chunk of stream) {
      const choice = chunk.choices[0]
      if (choice?.delta.content) pieces.push(choice.delta.content)
      if (choice?.finish_reason) finish = choice.finish_reason
    }
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.join('')).toBe('Hello from the fake model, streamed in pieces.')
    expect(finish).toBe('stop')
  })

  it('streams two tool calls that the SDK helper assembles, with usage', async () => {
    fake.setScript([
      {
        text: 'Reading, then writing.',
        toolCalls: twoCalls,
        usage: { input: 120, output: 30, cached: 64 }
      }
    ])
    const runner = openai().chat.completions.stream({
      model: 'fake-small',
      messages: [{ role: 'user', content: 'do it' }],
      tools: twoCalls.map((call) => ({
        type: 'function' as const,
        function: { name: call.name, parameters: toolSchema }
      })),
      stream_options: { include_usage: true }
    })
    const completion = await runner.finalChatCompletion()
    const choice = completion.choices[0]
    expect(choice?.finish_reason).toBe('tool_calls')
    expect(choice?.message.content).toBe('Reading, then writing.')
    const calls = (choice?.message.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error(`unexpected tool call type ${call.type}`)
      return { id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) }
    })
    expect(calls).toEqual(twoCalls)
    expect(completion.usage).toMatchObject({
      prompt_tokens: 120,
      completion_tokens: 30,
      prompt_tokens_details: { cached_tokens: 64 }
    })
    expect(fake.chatRequests()[0]?.tools).toEqual(['read_file', 'write_file'])
  })

  it('reads tool results back from the next request', async () => {
    fake.setScript([
      (req) => ({
        text: `got ${latestToolResults(req)
          .map((r) => r.content)
          .join(' + ')}`
      })
    ])
    const completion = await openai().chat.completions.create({
      model: 'fake-small',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'do it' },
        {
          role: 'assistant',
          content: null,
          tool_calls: twoCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.input) }
          }))
        },
        { role: 'tool', tool_call_id: 'call_read', content: 'A' },
        { role: 'tool', tool_call_id: 'call_write', content: 'B' }
      ]
    })
    expect(completion.choices[0]?.message.content).toBe('got A + B')
    expect(fake.lastToolResults()).toEqual([
      { toolCallId: 'call_read', name: 'read_file', content: 'A', isError: false },
      { toolCallId: 'call_write', name: 'write_file', content: 'B', isError: false }
    ])
    expect(fake.chatRequests()[0]?.system).toBe('be brief')
  })

  it('lists models', async () => {
    const ids: string[] = []
    for await (const model of openai().models.list()) ids.push(model.id)
    expect(ids).toEqual(['fake-small', 'fake-large'])
  })

  it('refuses a wrong key with the SDK AuthenticationError', async () => {
    const call = openai('sk-wrong').chat.completions.create({
      model: 'fake-small',
      messages: [{ role: 'user', content: 'hi' }]
    })
    await expect(call).rejects.toBeInstanceOf(OpenAI.AuthenticationError)
    await expect(call).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' })
  })

  it('turns a scripted error into an APIError without retries, then runs out politely', async () => {
    fake.setScript([{ status: 500, error: 'the fake model fell over' }])
    const client = new OpenAI({ apiKey: key, baseURL: fake.openaiBaseUrl, maxRetries: 2 })
    const messages = [{ role: 'user' as const, content: 'hi' }]
    await expect(
      client.chat.completions.create({ model: 'fake-small', messages })
    ).rejects.toMatchObject({ status: 500, message: expect.stringContaining('fell over') })
    const after = await client.chat.completions.create({ model: 'fake-small', messages })
    expect(after.choices[0]?.message.content).toBe(exhaustedText)
    expect(fake.exhaustedRequests()).toHaveLength(1)
    expect(fake.chatRequests()).toHaveLength(2)
  })
})

describe('Anthropic Messages wire format', () => {
  it('streams text in several deltas that add up to the scripted reply', async () => {
    fake.setScript([{ text: 'Bonjour from the fake model, in pieces.' }])
    const stream = anthropic().messages.stream({
      model: 'fake-large',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }]
    })
    const pieces: string[] = []
    stream.on('text', (delta) => pieces.push(delta))
    const message = await stream.finalMessage()
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.join('')).toBe('Bonjour from the fake model, in pieces.')
    expect(message.stop_reason).toBe('end_turn')
    expect(message.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Bonjour from the fake model, in pieces.' })
    ])
  })

  it('streams two tool calls that finalMessage() assembles, with usage', async () => {
    fake.setScript([
      {
        text: 'Reading, then writing.',
        toolCalls: twoCalls,
        usage: { input: 80, output: 25, cached: 40 }
      }
    ])
    const message = await anthropic()
      .messages.stream({
        model: 'fake-large',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'do it' }],
        tools: twoCalls.map((call) => ({ name: call.name, input_schema: toolSchema }))
      })
      .finalMessage()
    expect(message.stop_reason).toBe('tool_use')
    const calls = message.content.flatMap((block) =>
      block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : []
    )
    expect(calls).toEqual(twoCalls)
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Reading, then writing.' })
    expect(message.usage).toMatchObject({
      input_tokens: 80,
      output_tokens: 25,
      cache_read_input_tokens: 40
    })
    expect(fake.chatRequests()[0]?.tools).toEqual(['read_file', 'write_file'])
  })

  it('reads tool results (with is_error) back from the next request', async () => {
    fake.setScript([{ text: 'noted' }])
    await anthropic().messages.create({
      model: 'fake-large',
      max_tokens: 100,
      system: 'be brief',
      messages: [
        { role: 'user', content: 'do it' },
        {
          role: 'assistant',
          content: twoCalls.map((call) => ({
            type: 'tool_use' as const,
            id: call.id,
            name: call.name,
            input: call.input
          }))
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'call_read',
              content: [{ type: 'text', text: 'A' }]
            },
            {
              type: 'tool_result',
              tool_use_id: 'call_write',
              content: 'denied: no',
              is_error: true
            }
          ]
        }
      ]
    })
    expect(fake.lastToolResults()).toEqual([
      { toolCallId: 'call_read', name: 'read_file', content: 'A', isError: false },
      { toolCallId: 'call_write', name: 'write_file', content: 'denied: no', isError: true }
    ])
    expect(fake.chatRequests()[0]?.system).toBe('be brief')
  })

  it('lists models', async () => {
    const ids: string[] = []
    for await (const model of anthropic().models.list()) ids.push(model.id)
    expect(ids).toEqual(['fake-small', 'fake-large'])
  })

  it('refuses a wrong key with the SDK AuthenticationError', async () => {
    const call = anthropic('sk-wrong').messages.create({
      model: 'fake-large',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }]
    })
    await expect(call).rejects.toBeInstanceOf(Anthropic.AuthenticationError)
    await expect(call).rejects.toMatchObject({ status: 401 })
  })
})

describe('streaming pace', () => {
  it('paces chunks with chunkDelayMs so a client can stop mid-reply', async () => {
    fake.setScript([{ text: 'one two three four five six seven eight', chunkDelayMs: 150 }])
    const controller = new AbortController()
    const stream = await openai().chat.completions.create(
      { model: 'fake-small', messages: [{ role: 'user', content: 'hi' }], stream: true },
      { signal: controller.signal }
    )
    const pieces: string[] = []
    const reading = (async (): Promise<void> => {
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta.content
        if (text) pieces.push(text)
        if (pieces.length === 2) controller.abort()
      }
    })()
    // The openai SDK ends the iteration quietly on abort; either way no further chunk arrives.
    await reading.catch(() => undefined)
    expect(pieces).toHaveLength(2)
    expect(pieces.join('')).not.toBe('one two three four five six seven eight')
  })

  it('holds a reply after its first piece of text until its gate opens, in both formats', async () => {
    const openaiGate = gate()
    const anthropicGate = gate()
    fake.setScript([
      { text: 'one two three four five six seven eight', holdUntil: openaiGate.opened },
      { text: 'nine ten eleven twelve thirteen fourteen', holdUntil: anthropicGate.opened }
    ])
    const openaiPieces: string[] = []
    const openaiStream = await openai().chat.completions.create({
      model: 'fake-small',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true
    })
    const openaiRead = (async (): Promise<void> => {
      for await (const chunk of openaiStream) {
        const text = chunk.choices[0]?.delta.content
        if (text) openaiPieces.push(text)
      }
    })()
    await expect.poll(() => openaiPieces).toHaveLength(1)
    // Held: nothing more arrives until the gate opens, however long that takes.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(openaiPieces).toHaveLength(1)
    openaiGate.open()
    await openaiRead
    expect(openaiPieces.join('')).toBe('one two three four five six seven eight')

    const anthropicPieces: string[] = []
    const anthropicStream = anthropic().messages.stream({
      model: 'fake-large',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }]
    })
    anthropicStream.on('text', (text) => anthropicPieces.push(text))
    await expect.poll(() => anthropicPieces).toHaveLength(1)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(anthropicPieces).toHaveLength(1)
    anthropicGate.open()
    await anthropicStream.finalMessage()
    expect(anthropicPieces.join('')).toBe('nine ten eleven twelve thirteen fourteen')
  })
})
