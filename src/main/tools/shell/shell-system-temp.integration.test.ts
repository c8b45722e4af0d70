// A Shell call's temp_scope "system" through a whole core: the gate asks for the command and then,
// separately, for ShellSystemTemp; the command runs with the system temp directory only when both
// were allowed, and a refusal of either refuses the call with the reason.
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ToolCallView, TranscriptItem } from '../../../shared/domain'
import type { ApprovalRequest } from '../../../shared/approvals'
import { startCoreHarness, type CoreHarness } from '../../../../testing/core-harness'

async function turn(h: CoreHarness, text: string): Promise<ToolCallView[]> {
  const { id } = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: id, text })
  await h.core.sessions.idle(id)
  const { transcript } = await h.client.call('session.get', { sessionId: id })
  return transcript.flatMap((i: TranscriptItem) => (i.kind === 'tool' ? [i.call] : []))
}

const outputOf = (call: ToolCallView | undefined): string =>
  (call?.output?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('')

/** Answers each approval request by the decision it is for, and keeps the requests. */
function answering(h: CoreHarness, answers: Record<string, 'allow' | 'deny'>): ApprovalRequest[] {
  const asked: ApprovalRequest[] = []
  h.client.subscribe((frame) => {
    if (frame.event !== 'approval.requested') return
    const request = frame.payload as ApprovalRequest
    asked.push(request)
    void h.client.call('approval.respond', {
      approvalId: request.approvalId,
      decision: answers[request.tool] ?? 'deny'
    })
  })
  return asked
}

describe('Shell with temp_scope "system"', () => {
  it('runs in the system temp directory once the command and ShellSystemTemp are both allowed', async () => {
    const h = await startCoreHarness({
      name: 'system-temp',
      permissions: 'ask',
      core: { interactive: true }
    })
    const name = `mecatl-system-temp-${randomUUID()}.txt`
    const left = path.join(os.tmpdir(), name)
    const asked = answering(h, { Shell: 'allow', ShellSystemTemp: 'allow' })
    const command = `echo "$TMPDIR"; echo shared > "$TMPDIR/${name}"`
    h.fake.setScript([
      { toolCalls: [{ name: 'Shell', input: { command, temp_scope: 'system' } }] },
      { text: 'done' }
    ])
    try {
      const [call] = await turn(h, 'share a file through /tmp')
      expect(asked.map((r) => r.tool)).toEqual(['Shell', 'ShellSystemTemp'])
      expect(asked[1]?.reason).toContain('system temp directory')
      expect(call?.state).toBe('done')
      // TMPDIR is the system's itself, not a private directory under it.
      expect(outputOf(call).split('\n')).toContain(os.tmpdir())
      expect(readFileSync(left, 'utf8').trim()).toBe('shared')
    } finally {
      await rm(left, { force: true })
    }
  })

  it('is refused with the reason when ShellSystemTemp is denied, and nothing runs', async () => {
    const h = await startCoreHarness({
      name: 'system-temp-denied',
      permissions: 'ask',
      core: { interactive: true }
    })
    const asked = answering(h, { Shell: 'allow', ShellSystemTemp: 'deny' })
    h.fake.setScript([
      {
        toolCalls: [{ name: 'Shell', input: { command: 'touch ran.txt', temp_scope: 'system' } }]
      },
      { text: 'done' }
    ])
    const [call] = await turn(h, 'share a file through /tmp')
    expect(asked.map((r) => r.tool)).toEqual(['Shell', 'ShellSystemTemp'])
    expect(call).toMatchObject({ state: 'denied', refusedBy: 'approver' })
    expect(outputOf(call)).toMatch(/needs a second permission, ShellSystemTemp/)
    expect(existsSync(path.join(h.workspace, 'ran.txt'))).toBe(false)
  })
})
