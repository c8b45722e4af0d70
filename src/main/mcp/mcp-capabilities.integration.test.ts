import { describe, expect, it } from 'vitest'
import { latestToolResults } from '../../../testing/fake-model-server'
import { startCoreHarness } from '../../../testing/core-harness'
import { hintlessServer } from '../../../testing/mcp-test-servers'

/** Reads a private file, calls one MCP tool, then tries Shell, in allow mode. */
async function readCallThenShell(
  mcpTool: string,
  input: Record<string, unknown>,
  force?: Record<string, unknown>
): Promise<{ shell: string; taint: unknown }> {
  const h = await startCoreHarness({
    name: 'mcp-caps',
    files: { '.env': 'API_KEY=sk-secret\n' },
    // An unconfined Shell, a chosen send: what the interlock guards (a confined one with no
    // network sends nothing, see sandbox/sandbox-interlock.integration.test.ts).
    settings: {
      mcp: [hintlessServer('hintless', force ? { force } : {})],
      sandbox: { kind: 'none' }
    },
    script: [
      { toolCalls: [{ name: 'Read', input: { path: '.env' } }] },
      { toolCalls: [{ name: mcpTool, input }] },
      { toolCalls: [{ name: 'Shell', input: { command: 'echo shell-ran' } }] },
      (req) => ({ text: latestToolResults(req)[0]?.content ?? '' })
    ]
  })
  const { id } = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: id, text: 'go' })
  await h.core.sessions.idle(id)
  const { session } = await h.client.call('session.get', { sessionId: id })
  return { shell: h.fake.lastToolResults()[0]?.content ?? '', taint: session.taint }
}

describe('MCP tool capabilities in a session', () => {
  it('an unannotated tool adds private data only, so Shell still runs after it', async () => {
    const { shell, taint } = await readCallThenShell('mcp__hintless__lookup', { word: 'x' })
    expect(shell).toContain('shell-ran')
    expect(taint).toEqual({ privateData: true, untrustedInput: false })
  })

  it('an openWorldHint tool brings untrusted input, and the interlock then refuses Shell', async () => {
    const { shell, taint } = await readCallThenShell('mcp__hintless__open_world', { query: 'x' })
    expect(shell).toMatch(/Shell can send data to a destination the model chooses/)
    expect(taint).toEqual({ privateData: true, untrustedInput: true })
  })

  it('settings can force distrust onto an unannotated tool, never less', async () => {
    const { shell, taint } = await readCallThenShell(
      'mcp__hintless__lookup',
      { word: 'x' },
      { untrustedInput: true }
    )
    expect(shell).toMatch(/Shell can send data/)
    expect(taint).toEqual({ privateData: true, untrustedInput: true })
  })
})
