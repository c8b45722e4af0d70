import { chmod, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Capabilities } from '../../shared/domain'
import { defineTool, noCapabilities, textOutput, type Tool } from '../tools/tool'
import { Gate, nobodyToAsk, type Approver, type GatePolicy, type GateRequest } from './gate'
import type { Taint } from './taint'
import { plainFacts } from '../../../testing/stand-in-tools'

function tool(name: string, readOnly: boolean, capabilities: Partial<Capabilities> = {}): Tool {
  return defineTool({
    name,
    description: name,
    inputSchema: z.object({ command: z.string().optional() }),
    readOnly,
    capabilities: { ...noCapabilities, ...capabilities },
    source: 'test',
    ...plainFacts(name, readOnly),
    call: async () => textOutput('ran')
  })
}

const read = tool('Read', true, { privateData: true })
const write = tool('Write', false, { privateData: true, destructive: true })
const fetchUrl = tool('WebFetch', true, { untrustedInput: true, egress: 'chosen' })
const search = tool('WebSearch', true, { untrustedInput: true, egress: 'blind' })
const shell = tool('Shell', false, { privateData: true, destructive: true, egress: 'chosen' })

const armed: Taint = { privateData: true, untrustedInput: true }
const privateOnly: Taint = { privateData: true, untrustedInput: false }
const signal = new AbortController().signal
const yesPerson: Approver = { canAsk: true, ask: async () => ({ decision: 'allow' }) }

function decide(
  target: Tool,
  policy: Partial<GatePolicy>,
  taint: Taint = { privateData: false, untrustedInput: false },
  approver: Approver = nobodyToAsk,
  input: unknown = {}
): ReturnType<Gate['decide']> {
  const request: GateRequest = { sessionId: 's', callId: 'c', tool: target, input }
  return new Gate(policy, approver, () => taint).decide(request, signal)
}

describe('the interlock', () => {
  it('refuses a chosen-egress tool once private data and untrusted input are both present', async () => {
    const verdict = await decide(fetchUrl, { mode: 'allow' }, armed, yesPerson)
    expect(verdict).toMatchObject({ allowed: false, refusedBy: 'interlock' })
    expect(verdict.allowed === false && verdict.reason).toMatch(/private data and untrusted input/)
  })

  it('cannot be bypassed by allow mode, an allow rule, --yes or a person', async () => {
    const policy = {
      mode: 'allow' as const,
      autoApprove: true,
      rules: [{ tool: 'Shell', decision: 'allow' as const }]
    }
    const verdict = await decide(shell, policy, armed, yesPerson, { command: 'curl x' })
    expect(verdict).toMatchObject({ allowed: false, refusedBy: 'interlock' })
  })

  it('still lets local tools run in an armed conversation', async () => {
    expect(await decide(read, { mode: 'ask' }, armed)).toMatchObject({ allowed: true })
  })

  it('does not arm on private data alone, unless block_sends_after_private is set', async () => {
    expect(await decide(fetchUrl, { mode: 'allow' }, privateOnly)).toMatchObject({ allowed: true })
    expect(await decide(search, { mode: 'allow' }, privateOnly)).toMatchObject({ allowed: true })
    const strict = { mode: 'allow' as const, blockSendsAfterPrivate: true }
    expect(await decide(search, strict, privateOnly)).toMatchObject({ refusedBy: 'interlock' })
    expect(await decide(read, strict, privateOnly)).toMatchObject({ allowed: true })
  })
})

describe('rules and modes', () => {
  const rules = [
    { tool: 'Shell', command: 'git status', decision: 'allow' as const },
    { tool: 'Shell', command: 'git push', decision: 'prompt' as const },
    { tool: 'Shell', command: 'rm', decision: 'forbid' as const }
  ]

  it('forbid wins over allow mode and over a person', async () => {
    const verdict = await decide(shell, { mode: 'allow', rules }, undefined, yesPerson, {
      command: 'git status && rm -rf .'
    })
    expect(verdict).toMatchObject({ allowed: false, refusedBy: 'rule' })
  })

  it('an allow rule runs the call in ask mode without asking anyone', async () => {
    const verdict = await decide(shell, { mode: 'ask', rules }, undefined, nobodyToAsk, {
      command: 'git status'
    })
    expect(verdict).toEqual({ allowed: true, by: 'rule' })
  })

  it('prompt asks a person even in allow mode, and refuses when nobody can answer, even with --yes', async () => {
    const input = { command: 'git push' }
    // git push also writes into .git (remote-tracking refs): approved, it may write there.
    expect(await decide(shell, { mode: 'allow', rules }, undefined, yesPerson, input)).toEqual({
      allowed: true,
      by: 'approver',
      gitWrite: true
    })
    const headless = await decide(
      shell,
      { mode: 'allow', rules, autoApprove: true },
      undefined,
      nobodyToAsk,
      input
    )
    expect(headless).toMatchObject({ allowed: false, refusedBy: 'approver' })
  })

  it('--yes answers what the mode would ask about, but never past read-only mode', async () => {
    expect(await decide(write, { mode: 'ask', autoApprove: true })).toEqual({
      allowed: true,
      by: 'yes'
    })
    expect(await decide(write, { mode: 'read-only', autoApprove: true })).toMatchObject({
      refusedBy: 'mode'
    })
  })

  it('reads the rules afresh for each call, so a rule saved mid-turn decides the next call', async () => {
    const rules: { tool: string; decision: 'allow' }[] = []
    const gate = new Gate(
      { mode: 'ask', rules: [], currentRules: async () => [...rules] },
      nobodyToAsk
    )
    const request: GateRequest = { sessionId: 's', callId: 'c', tool: write, input: {} }
    expect(await gate.decide(request, signal)).toMatchObject({ allowed: false })
    rules.push({ tool: 'Write', decision: 'allow' })
    expect(await gate.decide(request, signal)).toEqual({ allowed: true, by: 'rule' })
  })

  it('planning mode refuses anything that is not read-only', async () => {
    expect(await decide(write, { mode: 'allow', planning: true })).toMatchObject({
      refusedBy: 'planning'
    })
    expect(await decide(read, { mode: 'allow', planning: true })).toMatchObject({ allowed: true })
  })

  it('judges a tool with readOnlyFor by this call: planning, read-only and ask mode', async () => {
    const delegate = defineTool({
      name: 'Delegate',
      description: 'Delegate',
      inputSchema: z.object({ look: z.boolean() }),
      readOnly: false,
      readOnlyFor: (input) => input.look,
      capabilities: noCapabilities,
      source: 'test',
      ...plainFacts('Delegate', false),
      call: async () => textOutput('ran')
    })
    const look = { look: true }
    const change = { look: false }
    for (const policy of [
      { planning: true },
      { mode: 'read-only' as const },
      { mode: 'ask' as const }
    ]) {
      expect(await decide(delegate, policy, undefined, nobodyToAsk, look)).toEqual({
        allowed: true,
        by: 'mode'
      })
      expect(await decide(delegate, policy, undefined, nobodyToAsk, change)).toMatchObject({
        allowed: false
      })
    }
    const refused = await decide(delegate, { planning: true }, undefined, nobodyToAsk, change)
    expect(refused).toMatchObject({
      refusedBy: 'planning',
      reason: expect.stringMatching(/^This Delegate call changes things/)
    })
  })
})

describe('hooks', () => {
  let dir: string
  const hook = async (name: string, body: string): Promise<string> => {
    const file = path.join(dir, name)
    await writeFile(file, `#!/usr/bin/env node\n${body}\n`)
    await chmod(file, 0o755)
    return file
  }
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-hooks-')))
  })
  afterAll(async () => rm(dir, { recursive: true, force: true }))

  const withHook = (
    command: string,
    extra: Partial<{ tools: string[]; timeout_ms: number }> = {}
  ) => ({
    mode: 'allow' as const,
    workspace: dir,
    hooks: [{ command, args: [], tools: extra.tools ?? [], timeout_ms: extra.timeout_ms ?? 5000 }]
  })

  it('receives the call as JSON and may refuse it with a reason', async () => {
    const file = await hook(
      'no-env.js',
      `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const c=JSON.parse(s);` +
        `if(String(c.input.command).includes('.env')){console.log(JSON.stringify({decision:'refuse',reason:'no secrets'}))}})`
    )
    const refused = await decide(shell, withHook(file), undefined, nobodyToAsk, {
      command: 'cat .env'
    })
    expect(refused).toMatchObject({ allowed: false, refusedBy: 'hook' })
    expect(refused.allowed === false && refused.reason).toMatch(/refused the call: no secrets$/)
    const passed = await decide(shell, withHook(file), undefined, nobodyToAsk, { command: 'ls' })
    expect(passed).toMatchObject({ allowed: true })
  })

  it('can only narrow: passing never approves what the mode refuses', async () => {
    const file = await hook('pass.js', 'process.exit(0)')
    const verdict = await decide(write, { ...withHook(file), mode: 'read-only' })
    expect(verdict).toMatchObject({ refusedBy: 'mode' })
  })

  it('refuses when the hook fails, cannot start, or times out', async () => {
    const failing = await hook('fail.js', "console.error('boom'); process.exit(3)")
    expect(await decide(write, withHook(failing))).toMatchObject({ refusedBy: 'hook' })
    expect(await decide(write, withHook(path.join(dir, 'missing-hook')))).toMatchObject({
      refusedBy: 'hook'
    })
    const slow = await hook('slow.js', 'setTimeout(()=>{}, 10000)')
    const timedOut = await decide(write, withHook(slow, { timeout_ms: 200 }))
    expect(timedOut.allowed === false && timedOut.reason).toMatch(/did not answer within 200 ms/)
  })

  it('is asked only about the tools it names', async () => {
    const failing = await hook('fail-shell.js', 'process.exit(1)')
    expect(await decide(write, withHook(failing, { tools: ['Shell'] }))).toMatchObject({
      allowed: true
    })
  })
})
