// Read-onlyness is decided per call (`readOnlyFor`), not per tool: a delegation whose child can
// only read, or a Parallel run that writes to copies, runs beside the step's reads, is not asked
// about in ask mode, and is not checkpointed; the same tool given a changing input is none of that.
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolCallView } from '../../shared/domain'
import { Gate, nobodyToAsk, type GatePolicy } from '../gate/gate'
import { Catalog } from '../tools/catalog'
import { createTestWorkspace, type TestWorkspace } from '../../../testing/fs-test-context'
import { defineTool, noCapabilities, textOutput, type Tool } from '../tools/tool'
import { dispatch, type DispatchDeps, type RequestedCall } from './dispatcher'
import { plainFacts } from '../../../testing/stand-in-tools'

/** Resolves once `count` parties have arrived; a party left waiting alone fails after a bound. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0
  let release: () => void = () => undefined
  const all = new Promise<void>((resolve) => (release = resolve))
  return async () => {
    arrived += 1
    if (arrived === count) release()
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('ran alone: the other call never started')), 5000)
    )
    await Promise.race([all, timeout])
  }
}

/**
 * A stand-in for a delegation tool: mutating in general, read-only for a call that only looks.
 * `wait` runs inside every call, so a test can hold it until another call has started.
 */
function delegateLike(log: string[], wait: () => Promise<void> = async () => undefined): Tool {
  return defineTool({
    name: 'Delegate',
    description: 'stand-in',
    inputSchema: z.object({ tag: z.string(), look: z.boolean() }).strict(),
    readOnly: false,
    readOnlyFor: (input) => input.look,
    capabilities: noCapabilities,
    source: 'test',
    ...plainFacts('Delegate', false),
    call: async (input) => {
      log.push(`start Delegate:${input.tag}`)
      await wait()
      log.push(`end Delegate:${input.tag}`)
      return textOutput('delegated')
    }
  })
}

function reader(log: string[], wait: () => Promise<void> = async () => undefined): Tool {
  return defineTool({
    name: 'Look',
    description: 'stand-in read',
    inputSchema: z.object({ tag: z.string() }).strict(),
    readOnly: true,
    capabilities: noCapabilities,
    source: 'test',
    ...plainFacts('Look', true),
    call: async (input) => {
      log.push(`start Look:${input.tag}`)
      await wait()
      log.push(`end Look:${input.tag}`)
      return textOutput('looked')
    }
  })
}

let ws: TestWorkspace
afterEach(async () => ws?.cleanup())

interface Ran {
  results: Awaited<ReturnType<typeof dispatch>>
  updates: ToolCallView[]
  checkpoints: string[]
}

async function run(
  tools: Tool[],
  calls: RequestedCall[],
  policy: Partial<GatePolicy> = { mode: 'allow' }
): Promise<Ran> {
  ws = await createTestWorkspace()
  const updates: ToolCallView[] = []
  const checkpoints: string[] = []
  const deps: DispatchDeps = {
    sessionId: 's1',
    catalog: new Catalog(tools),
    gate: new Gate(policy, nobodyToAsk),
    context: ws.ctx,
    onUpdate: (view) => updates.push(view),
    checkpoints: {
      before: async () => {
        checkpoints.push('before')
      },
      after: async (view) => {
        checkpoints.push(`after ${view.id}`)
        return null
      }
    }
  }
  return { results: await dispatch(calls, deps), updates, checkpoints }
}

const last = (updates: readonly ToolCallView[], id: string): ToolCallView | undefined =>
  updates.filter((u) => u.id === id).at(-1)

describe('read-only per call', () => {
  it('runs a read-only call of a mutating tool concurrently with the step’s reads', async () => {
    const log: string[] = []
    const meet = barrier(2)
    const { results, updates } = await run(
      [delegateLike(log, meet), reader(log, meet)],
      [
        { id: '1', name: 'Delegate', input: { tag: 'a', look: true } },
        { id: '2', name: 'Look', input: { tag: 'b' } }
      ]
    )
    // Each waits for the other inside its call: run one after the other, the first times out.
    expect(results.map((r) => r.output.isError)).toEqual([false, false])
    expect(log.slice(0, 2).sort()).toEqual(['start Delegate:a', 'start Look:b'])
    const delegated = last(updates, '1')
    const looked = last(updates, '2')
    expect(delegated?.readOnly).toBe(true)
    // Both had started before either ended.
    expect(delegated?.startedAt).not.toBeNull()
    expect(looked?.startedAt ?? Infinity).toBeLessThanOrEqual(delegated?.endedAt ?? -1)
  })

  it('runs the same tool alone, in order, when this call changes things', async () => {
    const log: string[] = []
    const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10))
    const { updates } = await run(
      [delegateLike(log, pause), reader(log, pause)],
      [
        { id: '1', name: 'Look', input: { tag: '1' } },
        { id: '2', name: 'Delegate', input: { tag: '2', look: false } },
        { id: '3', name: 'Look', input: { tag: '3' } }
      ]
    )
    expect(log).toEqual([
      'start Look:1',
      'end Look:1',
      'start Delegate:2',
      'end Delegate:2',
      'start Look:3',
      'end Look:3'
    ])
    expect(last(updates, '2')?.readOnly).toBe(false)
  })

  it('checkpoints only around the calls that change things', async () => {
    const { checkpoints } = await run(
      [delegateLike([]), reader([])],
      [
        { id: '1', name: 'Delegate', input: { tag: 'a', look: true } },
        { id: '2', name: 'Delegate', input: { tag: 'b', look: false } }
      ]
    )
    expect(checkpoints).toEqual(['before', 'after 2'])
  })

  it('in ask mode with nobody to ask, runs the read-only call and refuses the changing one', async () => {
    const log: string[] = []
    const { results } = await run(
      [delegateLike(log)],
      [
        { id: '1', name: 'Delegate', input: { tag: 'a', look: true } },
        { id: '2', name: 'Delegate', input: { tag: 'b', look: false } }
      ],
      { mode: 'ask' }
    )
    expect(results.map((r) => r.refusedBy)).toEqual([null, 'approver'])
    expect(log).toEqual(['start Delegate:a', 'end Delegate:a'])
  })

  it('treats a call as changing when the hook throws, or says so for a read-only tool', async () => {
    const throwing = defineTool({
      name: 'Unsure',
      description: 'stand-in',
      inputSchema: z.object({}).strict(),
      readOnly: true,
      readOnlyFor: () => {
        throw new Error('cannot tell')
      },
      capabilities: noCapabilities,
      source: 'test',
      ...plainFacts('Unsure', true),
      call: async () => textOutput('ran')
    })
    const narrowing = defineTool({
      name: 'Narrow',
      description: 'stand-in',
      inputSchema: z.object({ write: z.boolean() }).strict(),
      readOnly: true,
      readOnlyFor: (input) => !input.write,
      capabilities: noCapabilities,
      source: 'test',
      ...plainFacts('Narrow', true),
      call: async () => textOutput('ran')
    })
    const { results, updates } = await run(
      [throwing, narrowing],
      [
        { id: '1', name: 'Unsure', input: {} },
        { id: '2', name: 'Narrow', input: { write: true } },
        { id: '3', name: 'Narrow', input: { write: false } }
      ],
      { mode: 'read-only' }
    )
    expect(results.map((r) => r.refusedBy)).toEqual(['mode', 'mode', null])
    expect(last(updates, '2')?.readOnly).toBe(false)
  })
})
