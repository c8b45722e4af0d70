import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ApprovalRequest } from '../../shared/approvals'
import { EventHub } from '../events/event-hub'
import { defineTool, noCapabilities, textOutput } from '../tools/tool'
import { approvalShell } from './approval-shell'
import { InteractiveApprover } from './interactive-approver'
import { plainFacts } from '../../../testing/stand-in-tools'

describe('approvalShell', () => {
  it('lists the commands a line runs, its redirections and its substitutions', async () => {
    expect(
      await approvalShell('Shell', { command: 'git status && wc -l < in.txt > out.txt' })
    ).toEqual({
      commands: ['git status', 'wc -l'],
      redirections: [
        { source: '< in.txt', access: 'read' },
        { source: '> out.txt', access: 'write' }
      ],
      substitutions: [],
      concerns: []
    })
  })

  it('finds commands inside substitutions, nested shells and pipes', async () => {
    const shell = await approvalShell('Shell', {
      command: 'echo "$(date)" | bash -c \'cat `ls`\' 2>&1'
    })
    // A substitution runs before the command that uses its output, and is listed first.
    expect(shell?.commands).toEqual(['date', 'echo "$(date)"', 'ls', 'cat `ls`'])
    expect(shell?.substitutions).toEqual(['$(date)', '`ls`'])
    // A descriptor copy opens no file, so it is not listed as a redirection.
    expect(shell?.redirections).toEqual([])
  })

  it('says what it cannot know', async () => {
    const shell = await approvalShell('Shell', { command: 'eval "$X"; (' })
    expect(shell?.concerns).toContain('the command does not parse as bash')
    expect(shell?.concerns.some((c) => c.includes('`eval` runs code'))).toBe(true)
  })

  it('is only for a Shell call with a command', async () => {
    expect(await approvalShell('Write', { command: 'ls' })).toBeUndefined()
    expect(await approvalShell('Shell', { command: 3 })).toBeUndefined()
    expect(await approvalShell('Shell', null)).toBeUndefined()
  })
})

describe('the approval request of a Shell call', () => {
  it('carries what the parser found to the window; other calls carry nothing', async () => {
    const hub = new EventHub()
    const approver = new InteractiveApprover(hub)
    const seen: ApprovalRequest[] = []
    hub.subscribe((frame) => {
      if (frame.event !== 'approval.requested') return
      const request = frame.payload as ApprovalRequest
      seen.push(request)
      approver.respond(request.approvalId, { decision: 'deny' })
    })
    const tool = (name: string): ReturnType<typeof defineTool> =>
      defineTool({
        name,
        description: name,
        inputSchema: z.object({ command: z.string() }),
        readOnly: false,
        capabilities: noCapabilities,
        source: 'test',
        ...plainFacts(name, false),
        call: async () => textOutput('ran')
      })
    const signal = new AbortController().signal
    const ask = (name: string): Promise<unknown> =>
      approver.ask(
        { sessionId: 's', callId: name, tool: tool(name), input: { command: 'ls > out.txt' } },
        signal,
        'mode "ask"'
      )
    await ask('Shell')
    await ask('Other')
    expect(seen[0]?.shell).toEqual({
      commands: ['ls'],
      redirections: [{ source: '> out.txt', access: 'write' }],
      substitutions: [],
      concerns: []
    })
    expect(seen[1]).not.toHaveProperty('shell')
  })
})
