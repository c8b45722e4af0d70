import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, noCapabilities, textOutput, type Tool } from '../tools/tool'
import { approvalFacts } from '../tools/tool-presentation'
import { Gate, nobodyToAsk, type Approver, type GatePolicy, type GateRequest } from './gate'
import type { PermissionRule } from './rules'
import { plainFacts } from '../../../testing/stand-in-tools'

const shell: Tool = defineTool({
  name: 'Shell',
  description: 'Shell',
  inputSchema: z.object({ command: z.string(), temp_scope: z.enum(['system']).optional() }),
  readOnly: false,
  capabilities: { ...noCapabilities, privateData: true, destructive: true },
  source: 'test',
  ...plainFacts('Shell', false),
  call: async () => textOutput('ran')
})

const signal = new AbortController().signal
const systemTemp = { command: 'make', temp_scope: 'system' }

/** A person who answers each request by the decision it is for, and notes what was asked. */
function person(answers: Record<string, 'allow' | 'deny'>): Approver & { asked: string[] } {
  const asked: string[] = []
  return {
    canAsk: true,
    asked,
    ask: async (request, _signal, reason) => {
      asked.push(`${request.tool.name}: ${reason}`)
      return { decision: answers[request.tool.name] ?? 'deny' }
    }
  }
}

function decide(
  policy: Partial<GatePolicy>,
  approver: Approver,
  input: unknown = systemTemp
): ReturnType<Gate['decide']> {
  const request: GateRequest = { sessionId: 's', callId: 'c', tool: shell, input }
  return new Gate(policy, approver).decide(request, signal)
}

const allowShell: PermissionRule = { tool: 'Shell', decision: 'allow' }
const allowSystemTemp: PermissionRule = { tool: 'ShellSystemTemp', decision: 'allow' }

describe('temp_scope "system"', () => {
  it('needs the Shell decision and a separate ShellSystemTemp decision in ask mode', async () => {
    const both = person({ Shell: 'allow', ShellSystemTemp: 'allow' })
    expect(await decide({ mode: 'ask' }, both)).toMatchObject({ allowed: true })
    expect(both.asked).toHaveLength(2)
    expect(both.asked[0]).toMatch(/^Shell: /)
    expect(both.asked[1]).toMatch(/^ShellSystemTemp: .*system temp directory/)
    // The same command without it is one decision, as before.
    const once = person({ Shell: 'allow' })
    expect(await decide({ mode: 'ask' }, once, { command: 'make' })).toMatchObject({
      allowed: true
    })
    expect(once.asked).toHaveLength(1)
  })

  it('asks the second decision in words of its own, keeping what Shell changes', async () => {
    const asked: GateRequest[] = []
    const approver: Approver = {
      canAsk: true,
      ask: async (request) => {
        asked.push(request)
        return { decision: 'allow' }
      }
    }
    await decide({ mode: 'ask' }, approver)
    const [, second] = asked.map((request) => approvalFacts(request.tool, request.input))
    expect(second).toEqual({
      sentence:
        'Give the command below the shared system temp directory instead of its own empty one: it can read and change what other programs keep there.',
      changes: shell.presentation.changes
    })
  })

  it('is refused, saying why, when the second decision is refused', async () => {
    const onlyShell = person({ Shell: 'allow', ShellSystemTemp: 'deny' })
    const verdict = await decide({ mode: 'ask' }, onlyShell)
    expect(verdict).toMatchObject({ allowed: false, refusedBy: 'approver' })
    expect(verdict.allowed === false && verdict.reason).toMatch(
      /needs a second permission, ShellSystemTemp.*denied.*Leave temp_scope out/
    )
    // Refusing the command itself never asks the second question.
    const noShell = person({ Shell: 'deny', ShellSystemTemp: 'allow' })
    expect(await decide({ mode: 'ask' }, noShell)).toMatchObject({ allowed: false })
    expect(noShell.asked).toHaveLength(1)
  })

  it('is not allowed by a rule for Shell alone; a ShellSystemTemp rule allows the second', async () => {
    const asked = person({ ShellSystemTemp: 'allow' })
    expect(await decide({ mode: 'ask', rules: [allowShell] }, asked)).toMatchObject({
      allowed: true
    })
    expect(asked.asked.map((a) => a.split(':')[0])).toEqual(['ShellSystemTemp'])
    const nobody = person({})
    const rules = [allowShell, allowSystemTemp]
    expect(await decide({ mode: 'ask', rules }, nobody)).toMatchObject({ allowed: true })
    expect(nobody.asked).toEqual([])
    // A ShellSystemTemp rule alone still leaves the command to its own decision.
    const shellAsked = person({ Shell: 'allow' })
    expect(await decide({ mode: 'ask', rules: [allowSystemTemp] }, shellAsked)).toMatchObject({
      allowed: true
    })
    expect(shellAsked.asked.map((a) => a.split(':')[0])).toEqual(['Shell'])
  })

  it('is refused before anyone is asked when a rule forbids ShellSystemTemp', async () => {
    const asked = person({ Shell: 'allow', ShellSystemTemp: 'allow' })
    const rules: PermissionRule[] = [allowShell, { tool: 'ShellSystemTemp', decision: 'forbid' }]
    const verdict = await decide({ mode: 'allow', rules }, asked)
    expect(verdict).toMatchObject({ allowed: false, refusedBy: 'rule' })
    expect(verdict.allowed === false && verdict.reason).toContain('forbids ShellSystemTemp')
    expect(asked.asked).toEqual([])
  })

  it('follows the mode otherwise: allowed in allow mode, refused headless, --yes answers it', async () => {
    expect(await decide({ mode: 'allow' }, nobodyToAsk)).toMatchObject({ allowed: true })
    const headless = await decide({ mode: 'ask', rules: [allowShell] }, nobodyToAsk)
    expect(headless).toMatchObject({ allowed: false, refusedBy: 'approver' })
    expect(headless.allowed === false && headless.reason).toContain('ShellSystemTemp')
    expect(await decide({ mode: 'ask', autoApprove: true }, nobodyToAsk)).toMatchObject({
      allowed: true
    })
    // A rule that asks for ShellSystemTemp is not answered by --yes.
    const prompt: PermissionRule = { tool: 'ShellSystemTemp', decision: 'prompt' }
    const rules = [allowShell, prompt]
    expect(await decide({ mode: 'allow', autoApprove: true, rules }, nobodyToAsk)).toMatchObject({
      allowed: false
    })
    // Read-only mode refuses the command whatever the second decision would say.
    expect(
      await decide({ mode: 'read-only', rules: [allowSystemTemp] }, nobodyToAsk)
    ).toMatchObject({ allowed: false, refusedBy: 'mode' })
  })
})
