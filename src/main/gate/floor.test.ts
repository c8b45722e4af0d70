import { mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openStore, type Store } from '../store/store'
import { memoryTools } from '../tools/memory/memory-tools'
import { defineTool, textOutput, type Tool } from '../tools/tool'
import { Gate, nobodyToAsk, type Approver, type GatePolicy } from './gate'
import { permissionFloor } from './floor'
import { plainFacts } from '../../../testing/stand-in-tools'

// The memory tools' default decisions, judged by the real gate over the real tools.
let dir: string
let store: Store
let tools: Map<string, Tool>

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-floor-')))
  store = openStore(path.join(dir, 'home'))
  tools = new Map(memoryTools(store.memory, { userModel: true }).map((t) => [t.name, t]))
})
afterEach(async () => {
  store.close()
  await rm(dir, { recursive: true, force: true })
})

const signal = new AbortController().signal
const allowed = ['Remember', 'Recall', 'SearchMemory', 'InspectMemory', 'UndoMemory']
const userAllowed = [
  'RememberUser',
  'RecallUser',
  'SearchUserModel',
  'InspectUserMemory',
  'UndoUserMemory'
]

async function verdict(
  name: string,
  policy: Partial<GatePolicy>,
  approver: Approver = nobodyToAsk
): Promise<string> {
  const tool = tools.get(name) ?? null
  if (!tool) throw new Error(`no tool ${name}`)
  const decided = await new Gate(policy, approver).decide(
    { sessionId: 's', callId: 'c', tool, input: {} },
    signal
  )
  return decided.allowed ? `allowed by ${decided.by}` : `refused by ${decided.refusedBy}`
}

describe('the memory tools’ permission floor', () => {
  it('allows Remember, Recall, SearchMemory, Inspect and Undo without asking in ask mode', async () => {
    for (const name of [...allowed, ...userAllowed]) {
      expect(await verdict(name, { mode: 'ask' }), name).toMatch(/^allowed/)
    }
  })

  it('asks before Forget in every mode; --yes answers it, headless nobody can', async () => {
    for (const name of ['ForgetMemory', 'ForgetUserMemory']) {
      expect(await verdict(name, { mode: 'ask' }), name).toBe('refused by approver')
      expect(await verdict(name, { mode: 'allow' }), name).toBe('refused by approver')
      expect(await verdict(name, { mode: 'allow', autoApprove: true }), name).toBe('allowed by yes')
      const asked: string[] = []
      const person: Approver = {
        canAsk: true,
        ask: async (_request, _signal, why) => {
          asked.push(why)
          return { decision: 'allow' }
        }
      }
      expect(await verdict(name, { mode: 'allow' }, person)).toBe('allowed by approver')
      expect(asked[0]).toContain(`${name} asks a person by default`)
    }
  })

  it('gives way to any rule that names the tool, either way', async () => {
    const forget = { tool: 'ForgetMemory', decision: 'allow' as const }
    expect(await verdict('ForgetMemory', { mode: 'ask', rules: [forget] })).toBe('allowed by rule')
    const ask = { tool: 'Remember', decision: 'prompt' as const }
    expect(await verdict('Remember', { mode: 'ask', rules: [ask] })).toBe('refused by approver')
    const never = { tool: 'UndoMemory', decision: 'forbid' as const }
    expect(await verdict('UndoMemory', { mode: 'allow', rules: [never] })).toBe('refused by rule')
  })

  it('never lifts read-only mode or planning: Remember and Undo still change things', async () => {
    for (const name of ['Remember', 'UndoMemory', 'ForgetMemory']) {
      expect(await verdict(name, { mode: 'read-only' }), name).toBe('refused by mode')
      expect(await verdict(name, { mode: 'ask', planning: true }), name).toBe('refused by planning')
    }
  })

  it('covers every memory tool, and goes by what a tool declares: a look-alike gets no floor', async () => {
    expect([...tools.keys()].sort()).toEqual(
      [...allowed, ...userAllowed, 'ForgetMemory', 'ForgetUserMemory'].sort()
    )
    for (const tool of tools.values()) expect(permissionFloor(tool), tool.name).not.toBeNull()
    const lookalike = defineTool({
      name: 'Remember',
      description: 'not ours',
      inputSchema: z.object({}),
      readOnly: false,
      capabilities: {
        privateData: true,
        untrustedInput: false,
        egress: 'none',
        destructive: false
      },
      source: 'mcp:notes',
      ...plainFacts('Remember', false),
      call: async () => textOutput('kept')
    })
    expect(permissionFloor(lookalike)).toBeNull()
    const decided = await new Gate({ mode: 'ask' }, nobodyToAsk).decide(
      { sessionId: 's', callId: 'c', tool: lookalike, input: {} },
      signal
    )
    expect(decided).toMatchObject({ allowed: false, refusedBy: 'approver' })
  })
})
