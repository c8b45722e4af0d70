import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApprovalRequest } from '../../shared/approvals'
import { EventHub } from '../events/event-hub'
import { copyTool } from '../tools/fs/copy'
import { editTool } from '../tools/fs/edit'
import { moveTool } from '../tools/fs/move'
import { removeTool } from '../tools/fs/remove'
import { writeTool } from '../tools/fs/write'
import type { Tool } from '../tools/tool'
import {
  Gate,
  nobodyToAsk,
  type Approver,
  type GateDecision,
  type GatePolicy,
  type GateRequest
} from './gate'
import { InteractiveApprover } from './interactive-approver'

let workspace: string
const signal = new AbortController().signal

function decide(
  tool: Tool,
  input: unknown,
  policy: Partial<GatePolicy>,
  approver: Approver = nobodyToAsk
): Promise<GateDecision> {
  const request: GateRequest = { sessionId: 's', callId: 'c', tool, input }
  return new Gate({ workspace, ...policy }, approver).decide(request, signal)
}

const writeConfig = { path: '.git/config', content: '[core]\n\tfsmonitor = touch /tmp/owned\n' }

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-git-writes-')))
  await mkdir(path.join(workspace, '.git', 'hooks'), { recursive: true })
  await writeFile(path.join(workspace, '.git', 'config'), '[core]\n')
  await writeFile(path.join(workspace, 'notes.txt'), 'notes\n')
  await symlink('.git', path.join(workspace, 'g'))
  await symlink('.git/hooks', path.join(workspace, 'hooks-link'))
})
afterAll(async () => rm(workspace, { recursive: true, force: true }))

describe('file tools writing into .git', () => {
  it('need a person in every mode: ask, ask with --yes, allow with --yes, headless', async () => {
    for (const policy of [
      { mode: 'ask' as const },
      { mode: 'ask' as const, autoApprove: true },
      { mode: 'allow' as const, autoApprove: true }
    ]) {
      const verdict = await decide(writeTool, writeConfig, policy)
      expect(verdict, JSON.stringify(policy)).toMatchObject({
        allowed: false,
        refusedBy: 'approver'
      })
      expect(verdict.allowed === false && verdict.reason).toBe(
        "Write needs a person's approval (`.git/config` is inside the repository's .git folder, where a change can make git run programs (hooks, core.fsmonitor); a person must approve it), and nobody is available to approve it in this headless run. Do not retry; say what you would have done instead."
      )
    }
  })

  it('are refused in read-only mode, and by a forbidding rule', async () => {
    expect(await decide(writeTool, writeConfig, { mode: 'read-only' })).toMatchObject({
      refusedBy: 'mode'
    })
    const forbid = [{ tool: 'Write', decision: 'forbid' as const }]
    expect(
      await decide(writeTool, writeConfig, { mode: 'allow', rules: forbid }, yesPerson())
    ).toMatchObject({ refusedBy: 'rule' })
  })

  it('are not covered by an allow rule for the tool', async () => {
    const allow = [{ tool: 'Write', decision: 'allow' as const }]
    for (const mode of ['ask', 'allow'] as const) {
      expect(
        await decide(writeTool, writeConfig, { mode, rules: allow, autoApprove: true })
      ).toMatchObject({ allowed: false, refusedBy: 'approver' })
    }
    // The same rule still covers an ordinary file.
    const ordinary = { path: 'notes.txt', content: 'x' }
    expect(await decide(writeTool, ordinary, { mode: 'ask', rules: allow })).toEqual({
      allowed: true,
      by: 'rule'
    })
  })

  it('run once a person approves, and the person is told why and offered no rule', async () => {
    const person = yesPerson()
    // Marked as a .git write, so the tool may act there (and only then, see below).
    expect(await decide(writeTool, writeConfig, { mode: 'allow' }, person)).toEqual({
      allowed: true,
      by: 'approver',
      gitWrite: true
    })
    expect(person.reasons).toEqual([
      "`.git/config` is inside the repository's .git folder, where a change can make git run programs (hooks, core.fsmonitor); a person must approve it"
    ])
    expect(person.requests[0]?.ruleCanAllow).toBe(false)
  })

  it('are found through links, `..`, other cases, nested repositories and every depth', async () => {
    const paths = [
      'g/config',
      'hooks-link/pre-commit',
      './.git/../.git/config',
      'notes.txt/../.git/config',
      '.GIT/config',
      '.Git/HOOKS/pre-push',
      '.git',
      '.git/hooks/pre-commit',
      '.git/info/exclude',
      '.git/modules/lib/config',
      '.git/worktrees/w/config',
      'lib/.git/config',
      path.join(workspace, '.git', 'config')
    ]
    for (const requested of paths) {
      const verdict = await decide(writeTool, { path: requested, content: 'x' }, { mode: 'allow' })
      expect(verdict, requested).toMatchObject({ allowed: false, refusedBy: 'approver' })
    }
    const linked = await decide(writeTool, { path: 'g/config', content: 'x' }, { mode: 'allow' })
    expect(linked.allowed === false && linked.reason).toContain(
      "`g/config` leads into the repository's .git folder (.git/config)"
    )
  })

  it('count for Edit, Copy and Move destinations, and Move and Remove sources', async () => {
    const calls: [Tool, unknown][] = [
      [editTool, { path: '.git/config', old: '[core]', new: '[core]\n\tfsmonitor = x' }],
      [copyTool, { source: 'notes.txt', destination: '.git/hooks/pre-commit' }],
      [moveTool, { source: 'notes.txt', destination: 'g/hooks/pre-commit' }],
      [moveTool, { source: '.git/config', destination: 'config.bak' }],
      [moveTool, { source: 'hooks-link', destination: 'elsewhere' }],
      [removeTool, { path: '.git/index' }],
      [removeTool, { path: 'g/hooks' }]
    ]
    for (const [tool, input] of calls) {
      const verdict = await decide(tool, input, { mode: 'allow', autoApprove: true })
      expect(verdict, `${tool.name} ${JSON.stringify(input)}`).toMatchObject({
        allowed: false,
        refusedBy: 'approver'
      })
    }
    // Reading out of .git is not writing into it.
    const copyOut = { source: '.git/config', destination: 'config.copy' }
    expect(await decide(copyTool, copyOut, { mode: 'allow' })).toEqual({
      allowed: true,
      by: 'mode'
    })
  })

  it('leave ordinary files to the rules and the mode', async () => {
    expect(await decide(writeTool, { path: 'notes.txt', content: 'x' }, { mode: 'allow' })).toEqual(
      { allowed: true, by: 'mode' }
    )
    expect(
      await decide(writeTool, { path: '.github/ci.yml', content: 'x' }, { mode: 'allow' })
    ).toEqual({ allowed: true, by: 'mode' })
    expect(
      await decide(writeTool, { path: '.gitignore', content: 'x' }, { mode: 'allow' })
    ).toEqual({ allowed: true, by: 'mode' })
  })

  it('reach the window with their reason and no "Always allow"', async () => {
    const hub = new EventHub()
    const approver = new InteractiveApprover(hub)
    const seen: ApprovalRequest[] = []
    hub.subscribe((frame) => {
      if (frame.event !== 'approval.requested') return
      const request = frame.payload as ApprovalRequest
      seen.push(request)
      approver.respond(request.approvalId, { decision: 'deny' })
    })
    const verdict = await decide(writeTool, writeConfig, { mode: 'allow' }, approver)
    expect(verdict).toMatchObject({ allowed: false, refusedBy: 'approver' })
    expect(seen[0]).toMatchObject({
      tool: 'Write',
      ruleCanAllow: false,
      reason: expect.stringContaining("inside the repository's .git folder")
    })
    // An ordinary call still offers one.
    await decide(writeTool, { path: 'notes.txt', content: 'x' }, { mode: 'ask' }, approver)
    expect(seen[1]?.ruleCanAllow).toBeUndefined()
  })
})

function yesPerson(): Approver & { reasons: string[]; requests: GateRequest[] } {
  const reasons: string[] = []
  const requests: GateRequest[] = []
  return {
    canAsk: true,
    reasons,
    requests,
    ask: async (request, _signal, reason) => {
      reasons.push(reason)
      requests.push(request)
      return { decision: 'allow' }
    }
  }
}
