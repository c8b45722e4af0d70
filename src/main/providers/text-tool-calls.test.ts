import { readFile, writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import YAML from 'yaml'
import type { TranscriptItem } from '../../shared/domain'
import { fakeProvider, startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { settingsSchema } from '../../shared/settings'
import { latestToolResults, type Step } from '../../../testing/fake-model-server'
import { parseTextToolCalls } from './text-tool-calls'

const offered = ['Read', 'Write']

describe('parseTextToolCalls', () => {
  it('takes a <tool_call> span as a call and leaves the prose around it', () => {
    const found = parseTextToolCalls(
      'Let me look.\n<tool_call>\n{"name": "Read", "arguments": {"path": "a.txt"}}\n</tool_call>',
      offered
    )
    expect(found?.text).toBe('Let me look.')
    expect(found?.calls.map((c) => [c.name, JSON.parse(c.input)])).toEqual([
      ['Read', { path: 'a.txt' }]
    ])
  })

  it('keeps a closing tag inside the arguments, and takes an unclosed last call', () => {
    const body = { path: 'x.md', content: 'use </tool_call> to end' }
    const text = `<tool_call>{"name":"Write","arguments":${JSON.stringify(body)}}</tool_call><tool_call>{"name":"Read","parameters":"{\\"path\\":\\"x.md\\"}"}`
    const found = parseTextToolCalls(text, offered)
    expect(found?.calls.map((c) => [c.name, JSON.parse(c.input)])).toEqual([
      ['Write', body],
      ['Read', { path: 'x.md' }]
    ])
    expect(new Set(found?.calls.map((c) => c.id)).size).toBe(2)
  })

  it('takes fenced JSON calls, one or an array', () => {
    const found = parseTextToolCalls(
      'Reading both:\n```json\n[{"name":"Read","arguments":{"path":"a"}},{"name":"Read","arguments":{"path":"b"}}]\n```\n',
      offered
    )
    expect(found?.text).toBe('Reading both:')
    expect(found?.calls.map((c) => JSON.parse(c.input))).toEqual([{ path: 'a' }, { path: 'b' }])
  })

  it('leaves alone what is not a call of an offered tool', () => {
    for (const text of [
      'Plain prose with no call.',
      '<tool_call>{"name":"Delete","arguments":{"path":"a"}}</tool_call>',
      '<tool_call>{"name":"Read","arguments":{"path":</tool_call>',
      '<tool_call>{"name":"Read","arguments":[1,2]}</tool_call>',
      '```json\n{"name":"Read","arguments":{"path":"a"},"note":"an example config"}\n```',
      '```json\n{"name":"my-package","version":"1.0.0"}\n```',
      '```json\n[]\n```'
    ]) {
      expect(parseTextToolCalls(text, offered), text).toBeNull()
    }
    expect(parseTextToolCalls('<tool_call>{"name":"Read"}</tool_call>', [])).toBeNull()
  })
})

const calledInText: Step = {
  text: 'I will read it.\n<tool_call>\n{"name": "Read", "arguments": {"path": "notes.txt"}}\n</tool_call>'
}
const echo: Step = (req) => ({ text: `Read said: ${latestToolResults(req)[0]?.content ?? 'none'}` })

async function runTurn(h: CoreHarness): Promise<TranscriptItem[]> {
  const { id } = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: id, text: 'What do the notes say?' })
  await h.core.sessions.idle(id)
  return (await h.client.call('session.get', { sessionId: id })).transcript
}

describe('the text_tool_calls setting', () => {
  it('is for OpenAI-compatible providers only', () => {
    const provider = { id: 'p', base_url: 'http://127.0.0.1:11434/v1', text_tool_calls: false }
    expect(
      settingsSchema.safeParse({ providers: [{ ...provider, kind: 'openai-compatible' }] }).success
    ).toBe(true)
    const wrong = settingsSchema.safeParse({ providers: [{ ...provider, kind: 'openai' }] })
    expect(wrong.error?.issues[0]?.message).toMatch(/OpenAI-compatible providers/)
  })
})

describe('a tool call written as text', () => {
  it('is dispatched as a real tool call for an OpenAI-compatible provider', async () => {
    const h = await startCoreHarness({
      name: 'text-tool-call',
      format: 'openai-compatible',
      script: [calledInText, echo],
      files: { 'notes.txt': 'the key is under the mat' }
    })
    const transcript = await runTurn(h)
    const tools = transcript.filter((i) => i.kind === 'tool')
    expect(tools.map((t) => t.call.name)).toEqual(['Read'])
    const second = h.fake.chatRequests()[1]
    expect(latestToolResults(second!)[0]?.content).toContain('the key is under the mat')
    // The call went back to the model as a call, and the text it was written in is gone.
    const assistant = second!.messages.find((m) => m.role === 'assistant')
    expect(assistant?.toolCalls?.map((c) => c.name)).toEqual(['Read'])
    expect(assistant?.text).toBe('I will read it.')
  })

  it('stays text when text_tool_calls is false, and for OpenAI itself', async () => {
    for (const format of ['openai-compatible', 'openai'] as const) {
      const h = await startCoreHarness({
        name: 'text-tool-call-off',
        format,
        script: [calledInText, echo],
        files: { 'notes.txt': 'the key is under the mat' }
      })
      if (format === 'openai-compatible') {
        await writeFile(
          h.config,
          YAML.stringify({
            ...YAML.parse(await readFile(h.config, 'utf8')),
            providers: [{ ...fakeProvider(h.fake, format), text_tool_calls: false }]
          })
        )
      }
      const transcript = await runTurn(h)
      expect(
        transcript.filter((i) => i.kind === 'tool'),
        format
      ).toEqual([])
      expect(h.fake.chatRequests()).toHaveLength(1)
    }
  })
})
