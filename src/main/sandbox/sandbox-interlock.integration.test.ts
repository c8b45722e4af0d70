// Capabilities follow the sandbox: a confined Shell with no network keeps running in a
// conversation that holds private and untrusted content, and a call that asks to leave the
// sandbox is a chosen send again, which the interlock refuses there and only a person may allow.
import net from 'node:net'
import { describe, expect, it } from 'vitest'
import type { ToolCallView, TranscriptItem } from '../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { readInbox } from '../../../testing/stand-in-tools'

async function turn(h: CoreHarness, text: string): Promise<ToolCallView[]> {
  const { id } = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: id, text })
  await h.core.sessions.idle(id)
  const { transcript } = await h.client.call('session.get', { sessionId: id })
  return transcript.flatMap((i: TranscriptItem) => (i.kind === 'tool' ? [i.call] : []))
}

const outputOf = (call: ToolCallView | undefined): string =>
  (call?.output?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('')

describe('the interlock and a confined Shell', () => {
  it('lets a confined, network-off Shell run after private + untrusted, and refuses one asking for the network', async () => {
    const h = await startCoreHarness({
      name: 'sandbox-interlock',
      files: { '.env': 'API_KEY=sk-secret\n' },
      core: { extraTools: [readInbox] }
    })
    h.fake.setScript([
      { toolCalls: [{ name: 'Read', input: { path: '.env' } }] },
      { toolCalls: [{ name: 'ReadInbox', input: {} }] },
      { toolCalls: [{ name: 'Shell', input: { command: 'echo confined-ran' } }] },
      {
        toolCalls: [
          { name: 'Shell', input: { command: 'echo with-network', network: 'on' } },
          { name: 'Shell', input: { command: 'echo bare', sandbox: 'off' } }
        ]
      },
      { text: 'done' }
    ])
    const calls = await turn(h, 'read, then run')
    const shells = calls.filter((c) => c.name === 'Shell')
    expect(shells.map((c) => [c.state, c.refusedBy ?? null])).toEqual([
      ['done', null],
      ['denied', 'interlock'],
      ['denied', 'interlock']
    ])
    expect(outputOf(shells[0])).toContain('confined-ran')
  })

  it('asks a person for an escape even in allow mode, and headless refuses it', async () => {
    const h = await startCoreHarness({ name: 'sandbox-escape' })
    h.fake.setScript([
      { toolCalls: [{ name: 'Shell', input: { command: 'echo x', network: 'on' } }] },
      { text: 'done' }
    ])
    const [call] = await turn(h, 'run with the network')
    expect(call?.refusedBy).toBe('approver')
    expect(outputOf(call)).toContain('this command asks for the network')
  })

  it('gives one approved command the network, and only that one', async () => {
    const h = await startCoreHarness({
      name: 'sandbox-escape-ok',
      core: { interactive: true, autoApprove: true }
    })
    const server = net.createServer((socket) => socket.end('HOST-SAYS-HI\n'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as net.AddressInfo).port
    const probe = `${process.execPath} -e "require('net').connect(${port},'127.0.0.1').on('data',d=>{console.log(String(d).trim());process.exit(0)}).on('error',e=>{console.log('NO-NET '+e.code);process.exit(0)})"`
    h.client.subscribe((frame) => {
      if (frame.event !== 'approval.requested') return
      const request = frame.payload as { approvalId: string; reason: string }
      expect(request.reason).toContain('this command asks for the network')
      void h.client.call('approval.respond', { approvalId: request.approvalId, decision: 'allow' })
    })
    h.fake.setScript([
      { toolCalls: [{ name: 'Shell', input: { command: probe, network: 'on' } }] },
      { toolCalls: [{ name: 'Shell', input: { command: probe } }] },
      { text: 'done' }
    ])
    const calls = await turn(h, 'reach the host')
    server.close()
    expect(outputOf(calls[0])).toContain('HOST-SAYS-HI')
    expect(outputOf(calls[1])).toContain('NO-NET')
    // --yes (autoApprove) answered neither: the person did, through the window.
    expect(h.events.filter((e) => e.event === 'approval.requested')).toHaveLength(1)
  })
})
