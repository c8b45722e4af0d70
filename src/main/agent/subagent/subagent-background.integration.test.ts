// `background: true`: the Subagent call returns a handle at once, the child works on, and its
// answer is collected once with SubagentStatus; children still running when the core ends stop.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolCallView } from '../../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../../testing/core-harness'
import {
  latestToolResults,
  type NormalizedRequest,
  type Step
} from '../../../../testing/fake-model-server'
import { defineTool, noCapabilities, textOutput, type Tool } from '../../tools/tool'
import { plainFacts } from '../../../../testing/stand-in-tools'

/**
 * `Hold`, a read-only tool that holds its call until the test lets it go and says whether it was
 * stopped instead; and `UntilHeld`, which returns once a Hold call has begun, so a parent's step
 * can wait for its background child to be at work without any clock.
 */
function holdTools(): {
  tools: Tool[]
  entered: Promise<void>
  release: () => void
  stopped: () => boolean
} {
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => (release = resolve))
  let enter: () => void = () => undefined
  const entered = new Promise<void>((resolve) => (enter = resolve))
  let stopped = false
  const hold = defineTool({
    name: 'Hold',
    description: 'waits until the test lets it go',
    inputSchema: z.object({}).strict(),
    readOnly: true,
    capabilities: noCapabilities,
    source: 'test',
    ...plainFacts('Hold', true),
    call: async (_input, ctx) => {
      enter()
      await new Promise<void>((resolve) => {
        void released.then(resolve)
        ctx.signal.addEventListener('abort', () => {
          stopped = true
          resolve()
        })
      })
      return textOutput('held and let go')
    }
  })
  const untilHeld = defineTool({
    name: 'UntilHeld',
    description: 'returns once a Hold call has begun',
    inputSchema: z.object({}).strict(),
    readOnly: true,
    capabilities: noCapabilities,
    source: 'test',
    ...plainFacts('UntilHeld', true),
    call: async () => {
      await entered
      return textOutput('held')
    }
  })
  return { tools: [hold, untilHeld], entered, release: () => release(), stopped: () => stopped }
}

const isChild = (req: NormalizedRequest): boolean => req.system.includes('sub-agent named')

/**
 * Steps for a parent and its background child, each answered from its own list whichever asks
 * first: the two run at the same time, so their requests arrive in no fixed order.
 */
function routed(parent: Step[], child: Step[]): Step[] {
  const queues = { parent: [...parent], child: [...child] }
  const next = (req: NormalizedRequest): ReturnType<Extract<Step, (r: never) => unknown>> => {
    const who = isChild(req) ? 'child' : 'parent'
    const step = queues[who].shift()
    if (!step) throw new Error(`the ${who} asked once more than scripted`)
    return typeof step === 'function' ? step(req) : step
  }
  return Array.from({ length: parent.length + child.length }, () => next)
}

async function start(extraTools: Tool[]): Promise<CoreHarness> {
  return startCoreHarness({
    name: 'subagent-bg',
    format: 'openai-compatible',
    files: { 'a.txt': 'alpha\n' },
    core: { extraTools }
  })
}

const status = (input: Record<string, unknown>): { name: string; input: unknown } => ({
  name: 'SubagentStatus',
  input
})

const cards = (h: CoreHarness, sessionId: string): ToolCallView[] =>
  h.core.sessions
    .get(sessionId)
    .transcript()
    .flatMap((i) => (i.kind === 'tool' ? [i.call] : []))

describe('a background Subagent', () => {
  it('returns a handle at once, and its answer is collected once', async () => {
    const hold = holdTools()
    const h = await start(hold.tools)
    const seen: string[] = []
    const result = (req: NormalizedRequest): string => latestToolResults(req)[0]?.content ?? ''
    h.fake.setScript(
      routed(
        [
          {
            toolCalls: [
              {
                name: 'Subagent',
                input: { task: 'look around', tools: ['Hold', 'Read'], background: true }
              }
            ]
          },
          (req) => {
            seen.push(result(req))
            return { toolCalls: [{ name: 'UntilHeld', input: {} }] }
          },
          () => ({ toolCalls: [status({ id: 'subagent-1' })] }),
          (req) => {
            seen.push(result(req))
            // Only now may the child finish.
            hold.release()
            return { toolCalls: [status({ id: 'subagent-1', wait_ms: 600_000 })] }
          },
          (req) => {
            seen.push(result(req))
            return { toolCalls: [status({ id: 'subagent-1' })] }
          },
          (req) => {
            seen.push(result(req))
            return { toolCalls: [status({})] }
          },
          (req) => {
            seen.push(result(req))
            return { text: 'done' }
          }
        ],
        [{ toolCalls: [{ name: 'Hold', input: {} }] }, { text: 'The folder holds a.txt.' }]
      )
    )
    const session = await h.core.sessions.create(h.workspace)
    await h.core.sessions.send(session.id, 'look around, in the background')
    await h.core.sessions.idle(session.id)
    expect(h.fake.stepErrors()).toEqual([])
    const [handle, running, collected, again, listing] = seen
    expect(handle).toMatch(/^Started the sub-agent in the background as subagent-1\./)
    // The call had returned while the child was still held: it did not wait for it.
    expect(running).toMatch(
      /^subagent-1 \(Subagent\) is running for .*: 1 tool call so far, latest Hold\./
    )
    expect(running).toContain('Call SubagentStatus again with wait_ms')
    expect(collected).toBe('subagent-1 (Subagent) finished. Its result:\nThe folder holds a.txt.')
    expect(again).toMatch(/^subagent-1 has ended \(finished\)\. Its answer was already returned/)
    expect(again).not.toContain('The folder holds a.txt.')
    expect(listing).toMatch(
      /subagent-1 · Subagent · finished · answer collected · task: look around/
    )
    // The starting call's card follows the child to its end.
    const card = cards(h, session.id).find((c) => c.name === 'Subagent')
    expect(card).toMatchObject({ state: 'done' })
    expect(card?.output?.display).toMatchObject({
      kind: 'subagent',
      status: 'done',
      note: 'ran in the background as subagent-1',
      steps: [
        { kind: 'call', name: 'Hold', state: 'done' },
        { kind: 'text', text: 'The folder holds a.txt.' }
      ]
    })
  })

  it('is stopped when the core ends, and the end waits for it', async () => {
    const hold = holdTools()
    const h = await start(hold.tools)
    h.fake.setScript(
      routed(
        [
          {
            toolCalls: [
              { name: 'Subagent', input: { task: 'wait', tools: ['Hold'], background: true } }
            ]
          },
          { text: 'started it' }
        ],
        [{ toolCalls: [{ name: 'Hold', input: {} }] }]
      )
    )
    const session = await h.core.sessions.create(h.workspace)
    await h.core.sessions.send(session.id, 'start one')
    await h.core.sessions.idle(session.id)
    await hold.entered
    expect(hold.stopped()).toBe(false)
    // The run ends: the CLI command finishing, the window closing.
    await h.restart()
    expect(hold.stopped()).toBe(true)
  })

  it('can be cancelled with SubagentStatus, and is then listed as cancelled', async () => {
    const hold = holdTools()
    const h = await start(hold.tools)
    const seen: string[] = []
    h.fake.setScript(
      routed(
        [
          {
            toolCalls: [
              { name: 'Subagent', input: { task: 'wait', tools: ['Hold'], background: true } }
            ]
          },
          { toolCalls: [{ name: 'UntilHeld', input: {} }] },
          { toolCalls: [status({ id: 'subagent-1', cancel: true })] },
          (req) => {
            seen.push(latestToolResults(req)[0]?.content ?? '')
            return { toolCalls: [status({})] }
          },
          (req) => {
            seen.push(latestToolResults(req)[0]?.content ?? '')
            return { text: 'done' }
          }
        ],
        [{ toolCalls: [{ name: 'Hold', input: {} }] }]
      )
    )
    const session = await h.core.sessions.create(h.workspace)
    await h.core.sessions.send(session.id, 'start and stop one')
    await h.core.sessions.idle(session.id)
    expect(h.fake.stepErrors()).toEqual([])
    expect(hold.stopped()).toBe(true)
    expect(seen[0]).toContain('subagent-1 (Subagent) cancelled (cancelled with SubagentStatus)')
    expect(seen[0]).toContain('did not finish: the sub-agent was stopped')
    expect(seen[1]).toMatch(
      /subagent-1 · Subagent · cancelled \(cancelled with SubagentStatus\) · answer collected/
    )
  })

  it('is refused a mutating tool, which would change the folder while the parent goes on', async () => {
    const h = await start([])
    h.fake.setScript([
      {
        toolCalls: [
          { name: 'Subagent', input: { task: 'edit', tools: ['Read', 'Write'], background: true } }
        ]
      },
      { text: 'done' }
    ])
    const session = await h.core.sessions.create(h.workspace)
    await h.core.sessions.send(session.id, 'edit in the background')
    await h.core.sessions.idle(session.id)
    expect(h.fake.lastToolResults()[0]?.content).toMatch(
      /^A background sub-agent may only have read-only tools.*not read-only: Write\. Run it without background/
    )
    expect(h.fake.chatRequests().some(isChild)).toBe(false)
  })

  it('runs at most eight at once in a session; the next one is refused, saying why', async () => {
    const hold = holdTools()
    const h = await start(hold.tools)
    const start9 = Array.from({ length: 9 }, (_, i) => ({
      name: 'Subagent',
      input: { task: `wait ${i}`, tools: ['Hold'], background: true }
    }))
    h.fake.setScript(
      routed(
        [{ toolCalls: start9 }, { text: 'started them' }],
        Array.from({ length: 8 }, () => ({ toolCalls: [{ name: 'Hold', input: {} }] }))
      )
    )
    const session = await h.core.sessions.create(h.workspace)
    await h.core.sessions.send(session.id, 'start nine')
    await h.core.sessions.idle(session.id)
    const results = cards(h, session.id)
      .filter((c) => c.name === 'Subagent')
      .map((c) => c.output?.content[0])
      .map((block) => (block?.type === 'text' ? block.text : ''))
    expect(results.filter((t) => t.startsWith('Started the sub-agent'))).toHaveLength(8)
    const refused = results.filter((t) => !t.startsWith('Started the sub-agent'))
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatch(
      /^8 background sub-agents are already running in this session \(subagent-\d+(, subagent-\d+){7}\); collect or cancel one with SubagentStatus first\.$/
    )
  })

  it('is never given to a child, nor is SubagentStatus', async () => {
    const h = await start([])
    h.fake.setScript([
      { toolCalls: [{ name: 'Subagent', input: { task: 'x', tools: ['SubagentStatus'] } }] },
      { text: 'done' }
    ])
    const session = await h.core.sessions.create(h.workspace)
    await h.core.sessions.send(session.id, 'nest')
    await h.core.sessions.idle(session.id)
    expect(h.fake.lastToolResults()[0]?.content).toContain(
      'these tools cannot be given to a sub-agent here: SubagentStatus'
    )
    expect(h.fake.chatRequests().some(isChild)).toBe(false)
  })

  it('is not another session’s to collect', async () => {
    const h = await start([])
    h.fake.setScript(
      routed(
        [
          { toolCalls: [{ name: 'Subagent', input: { task: 'x', tools: [], background: true } }] },
          // Waited for here, so the child is done before the next script is set.
          { toolCalls: [status({ id: 'subagent-1', wait_ms: 600_000 })] },
          { text: 'started' }
        ],
        [{ text: 'the answer' }]
      )
    )
    const first = await h.core.sessions.create(h.workspace)
    await h.core.sessions.send(first.id, 'start')
    await h.core.sessions.idle(first.id)
    expect(h.fake.remainingSteps()).toBe(0)
    h.fake.setScript([{ toolCalls: [status({ id: 'subagent-1' })] }, { text: 'done' }])
    const second = await h.core.sessions.create(h.workspace)
    await h.core.sessions.send(second.id, 'take it')
    await h.core.sessions.idle(second.id)
    expect(h.fake.lastToolResults()[0]?.content).toBe(
      'There is no background sub-agent subagent-1 in this session; call SubagentStatus with no arguments to list them.'
    )
  })

  it('stops when its session is deleted, and is forgotten with it', async () => {
    const hold = holdTools()
    const h = await start(hold.tools)
    h.fake.setScript(
      routed(
        [
          {
            toolCalls: [
              {
                name: 'Subagent',
                input: { task: 'hold on', tools: ['Hold'], background: true }
              }
            ]
          },
          { toolCalls: [{ name: 'UntilHeld', input: {} }] },
          { text: 'left it running' }
        ],
        [{ toolCalls: [{ name: 'Hold', input: {} }] }, { text: 'never reached' }]
      )
    )
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: id, text: 'start a child' })
    await h.core.sessions.idle(id)
    expect(hold.stopped()).toBe(false)
    await h.client.call('session.delete', { sessionId: id })
    // The child was stopped (not let go) before the delete answered.
    expect(hold.stopped()).toBe(true)
    hold.release()
    await expect(h.client.call('session.get', { sessionId: id })).rejects.toMatchObject({
      code: 'not_found'
    })
  })
})
