import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolCallView } from '../../shared/domain'
import { EventHub } from '../events/event-hub'
import { Gate, nobodyToAsk, type Approver, type ApproverAnswer } from '../gate/gate'
import { InteractiveApprover } from '../gate/interactive-approver'
import { Catalog } from '../tools/catalog'
import { createTestWorkspace, type TestWorkspace } from '../../../testing/fs-test-context'
import { fsTools } from '../tools/fs'
import { defineTool, noCapabilities, textOutput, type Tool } from '../tools/tool'
import { dispatch, type RequestedCall } from './dispatcher'
import { plainFacts } from '../../../testing/stand-in-tools'

/** Resolves once `count` parties have arrived; a party that waits alone times out and fails. */
function barrier(count: number, timeoutMs = 5000): () => Promise<void> {
  let arrived = 0
  let release: () => void = () => undefined
  const all = new Promise<void>((resolve) => (release = resolve))
  return async () => {
    arrived += 1
    if (arrived === count) release()
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('ran alone: the other calls never started')), timeoutMs)
    )
    await Promise.race([all, timeout])
  }
}

function recordingTool(
  name: string,
  readOnly: boolean,
  log: string[],
  body: () => Promise<void> = async () => undefined
): Tool {
  return defineTool({
    name,
    description: `test tool ${name}`,
    inputSchema: z.object({ tag: z.string() }),
    readOnly,
    capabilities: noCapabilities,
    source: 'test',
    ...plainFacts(name, readOnly),
    call: async (input) => {
      log.push(`start ${name}:${input.tag}`)
      await body()
      log.push(`end ${name}:${input.tag}`)
      return textOutput(`${name} ${input.tag}`)
    }
  })
}

/** Waits, in bounded steps, until `ready` holds; fails the test when it never does. */
async function waitFor(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ready(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(ready()).toBe(true)
}

let ws: TestWorkspace
afterEach(async () => ws?.cleanup())

async function run(
  tools: Tool[],
  calls: RequestedCall[],
  options: { mode?: 'allow' | 'read-only' | 'ask'; approver?: Approver } = {}
): Promise<{ results: Awaited<ReturnType<typeof dispatch>>; updates: ToolCallView[] }> {
  ws = await createTestWorkspace()
  const updates: ToolCallView[] = []
  const results = await dispatch(calls, {
    sessionId: 's1',
    catalog: new Catalog(tools),
    gate: new Gate({ mode: options.mode ?? 'allow' }, options.approver ?? nobodyToAsk),
    context: ws.ctx,
    onUpdate: (view) => updates.push(view)
  })
  return { results, updates }
}

describe('dispatch', () => {
  it('runs read-only calls of one turn concurrently', async () => {
    const log: string[] = []
    const meet = barrier(2)
    const slow = [recordingTool('SlowA', true, log, meet), recordingTool('SlowB', true, log, meet)]
    const { results } = await run(slow, [
      { id: '1', name: 'SlowA', input: { tag: 'x' } },
      { id: '2', name: 'SlowB', input: { tag: 'y' } }
    ])
    // Each waits at the barrier for the other: run one after the other, the first would time out.
    expect(results.map((r) => r.output.isError)).toEqual([false, false])
    expect(log.slice(0, 2).sort()).toEqual(['start SlowA:x', 'start SlowB:y'])
  })

  it('runs mutating calls one at a time, in the order the model gave them', async () => {
    const log: string[] = []
    const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20))
    const tools = [recordingTool('Mut', false, log, pause), recordingTool('Look', true, log, pause)]
    await run(tools, [
      { id: '1', name: 'Mut', input: { tag: '1' } },
      { id: '2', name: 'Mut', input: { tag: '2' } },
      { id: '3', name: 'Look', input: { tag: '3' } },
      { id: '4', name: 'Mut', input: { tag: '4' } }
    ])
    expect(log).toEqual([
      'start Mut:1',
      'end Mut:1',
      'start Mut:2',
      'end Mut:2',
      'start Look:3',
      'end Look:3',
      'start Mut:4',
      'end Mut:4'
    ])
  })

  it('answers input that fails its schema with an isError result naming the field', async () => {
    const log: string[] = []
    const { results } = await run(
      [recordingTool('T', true, log)],
      [{ id: '1', name: 'T', input: '{"tag": 5}' }]
    )
    expect(results[0]?.output.isError).toBe(true)
    expect(results[0]?.output.content[0]).toMatchObject({ text: expect.stringContaining('`tag`') })
    expect(log).toEqual([])
  })

  it('answers malformed JSON arguments with an isError result, not a crash', async () => {
    const { results } = await run(
      [recordingTool('T', true, [])],
      [{ id: '1', name: 'T', input: '{"tag": "x"' }]
    )
    expect(results[0]?.output.isError).toBe(true)
    expect(results[0]?.output.content[0]).toMatchObject({
      text: expect.stringContaining('not valid JSON')
    })
  })

  it('turns an exception inside a tool into an isError result', async () => {
    const boom = recordingTool('Boom', false, [], async () => {
      throw new Error('disk on fire')
    })
    const { results, updates } = await run([boom], [{ id: '1', name: 'Boom', input: { tag: 'a' } }])
    expect(results[0]?.output).toMatchObject({ isError: true })
    expect(results[0]?.output.content[0]).toMatchObject({ text: 'Boom failed: disk on fire' })
    expect(updates.at(-1)?.state).toBe('failed')
  })

  it('names the available tools when the model calls one that does not exist', async () => {
    const { results } = await run(
      [recordingTool('Real', true, [])],
      [{ id: '1', name: 'Imaginary', input: {} }]
    )
    expect(results[0]?.output.content[0]).toMatchObject({
      text: 'There is no tool named Imaginary. Available tools: Real.'
    })
  })

  it('refuses mutating calls in read-only mode with a reason, and still runs reads', async () => {
    const log: string[] = []
    const { results } = await run(
      [recordingTool('Mut', false, log), recordingTool('Look', true, log)],
      [
        { id: '1', name: 'Mut', input: { tag: 'a' } },
        { id: '2', name: 'Look', input: { tag: 'b' } }
      ],
      { mode: 'read-only' }
    )
    expect(results[0]).toMatchObject({ refusedBy: 'mode', output: { isError: true } })
    expect(results[1]?.output.isError).toBe(false)
    expect(log).toEqual(['start Look:b', 'end Look:b'])
  })

  it('in ask mode with nobody to ask, refuses changes and tells the model why', async () => {
    const { results } = await run(
      fsTools(),
      [{ id: '1', name: 'Write', input: { path: 'new.txt', content: 'x' } }],
      { mode: 'ask' }
    )
    expect(results[0]?.refusedBy).toBe('approver')
    expect(results[0]?.output.content[0]).toMatchObject({
      text: expect.stringContaining('nobody is available to approve it')
    })
  })

  it('tells the tool that a person approved its git write, and only that call', async () => {
    const seen: Record<string, boolean | undefined> = {}
    const shell = defineTool({
      name: 'Shell',
      description: 'stand-in',
      inputSchema: z.object({ command: z.string() }),
      readOnly: false,
      capabilities: noCapabilities,
      source: 'test',
      ...plainFacts('Shell', false),
      call: async (input, ctx) => {
        seen[input.command] = ctx.gitWriteApproved
        return textOutput('ran')
      }
    })
    const person: Approver = { canAsk: true, ask: async () => ({ decision: 'allow' }) }
    const { results } = await run(
      [shell],
      [
        { id: '1', name: 'Shell', input: { command: 'git commit -m x' } },
        { id: '2', name: 'Shell', input: { command: 'git status' } },
        { id: '3', name: 'Shell', input: { command: 'g=git; $g commit' } }
      ],
      { mode: 'allow', approver: person }
    )
    expect(results.map((r) => r.refusedBy)).toEqual([null, null, null])
    // The sandbox opens .git for the first only: the others were not approved as git writes.
    expect(seen).toEqual({
      'git commit -m x': true,
      'git status': false,
      'g=git; $g commit': false
    })
  })

  it('asks about every call of a step at once, and answers in the order the model gave', async () => {
    const open = new Map<string, (answer: ApproverAnswer) => void>()
    const approver: Approver = {
      canAsk: true,
      ask: (request) => new Promise((resolve) => open.set(request.callId, resolve))
    }
    const log: string[] = []
    const done = run(
      [recordingTool('Mut', false, log)],
      [
        { id: '1', name: 'Mut', input: { tag: 'a' } },
        { id: '2', name: 'Mut', input: { tag: 'b' } }
      ],
      { mode: 'ask', approver }
    )
    // Both asks are open together (one dialog with a row each), in the calls' order.
    await waitFor(() => open.size === 2)
    expect([...open.keys()]).toEqual(['1', '2'])
    expect(log).toEqual([])
    // Answered out of order: the results still come back in the calls' order.
    open.get('2')?.({ decision: 'allow' })
    open.get('1')?.({ decision: 'deny', reason: 'not that file' })
    const { results } = await done
    expect(results.map((r) => r.callId)).toEqual(['1', '2'])
    expect(results[0]?.output.content[0]).toMatchObject({
      text: 'The person denied this Mut call, saying: not that file'
    })
    expect(results[1]?.refusedBy).toBeNull()
    expect(log).toEqual(['start Mut:b', 'end Mut:b'])
  })

  it('runs nothing before every call of the step is answered', async () => {
    const open = new Map<string, (answer: ApproverAnswer) => void>()
    const approver: Approver = {
      canAsk: true,
      ask: (request) => new Promise((resolve) => open.set(request.callId, resolve))
    }
    const log: string[] = []
    const done = run(
      [recordingTool('Mut', false, log)],
      [
        { id: '1', name: 'Mut', input: { tag: 'a' } },
        { id: '2', name: 'Mut', input: { tag: 'b' } }
      ],
      { mode: 'ask', approver }
    )
    await waitFor(() => open.size === 2)
    open.get('1')?.({ decision: 'allow' })
    // Call 1 is allowed, but call 2 still waits: a person who denies it may still stop the step.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(log).toEqual([])
    open.get('2')?.({ decision: 'allow' })
    await done
    expect(log).toEqual(['start Mut:a', 'end Mut:a', 'start Mut:b', 'end Mut:b'])
  })

  it('withdraws every waiting ask when the turn is stopped, and runs none of the calls', async () => {
    ws = await createTestWorkspace()
    const hub = new EventHub()
    const events: string[] = []
    hub.subscribe((frame) => events.push(frame.event))
    const approver = new InteractiveApprover(hub)
    const stop = new AbortController()
    const log: string[] = []
    const done = dispatch(
      [
        { id: '1', name: 'Mut', input: { tag: 'a' } },
        { id: '2', name: 'Mut', input: { tag: 'b' } }
      ],
      {
        sessionId: 's1',
        catalog: new Catalog([recordingTool('Mut', false, log)]),
        gate: new Gate({ mode: 'ask' }, approver),
        context: { ...ws.ctx, signal: stop.signal },
        onUpdate: () => undefined
      }
    )
    await waitFor(() => approver.pending('s1').length === 2)
    stop.abort()
    const results = await done
    expect(approver.pending('s1')).toEqual([])
    expect(events.filter((e) => e === 'approval.resolved')).toHaveLength(2)
    expect(results.map((r) => r.output.isError)).toEqual([true, true])
    expect(log).toEqual([])
  })
})
