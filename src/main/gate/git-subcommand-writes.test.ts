// Git's writing subcommands, found through the gate's parser however they are spelt, need a
// person in every mode; an approval lets that one command write into .git (`gitWrite`).
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, noCapabilities, textOutput, type Tool } from '../tools/tool'
import {
  Gate,
  nobodyToAsk,
  type Approver,
  type GateDecision,
  type GatePolicy,
  type GateRequest
} from './gate'
import { gitAccess } from './git-subcommands'
import { judgeShell, type PermissionRule } from './rules'
import { analyzeShell } from './shell-command'
import { unwrap } from './wrappers'
import { plainFacts } from '../../../testing/stand-in-tools'

// The Shell tool as the gate sees it; the gate is under test, not running the command.
const shell: Tool = defineTool({
  name: 'Shell',
  description: 'Shell',
  inputSchema: z.object({ command: z.string() }),
  readOnly: false,
  capabilities: { ...noCapabilities, privateData: true, destructive: true },
  source: 'test',
  ...plainFacts('Shell', false),
  call: async () => textOutput('ran')
})

let workspace: string
const signal = new AbortController().signal

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-git-subcommands-')))
  await mkdir(path.join(workspace, '.git', 'hooks'), { recursive: true })
  await writeFile(path.join(workspace, '.git', 'config'), '[core]\n')
  await mkdir(path.join(workspace, 'sub'))
})
afterAll(async () => rm(workspace, { recursive: true, force: true }))

function decide(
  line: string,
  policy: Partial<GatePolicy>,
  approver: Approver = nobodyToAsk
): Promise<GateDecision> {
  const request: GateRequest = {
    sessionId: 's',
    callId: 'c',
    tool: shell,
    input: { command: line }
  }
  return new Gate({ workspace, ...policy }, approver).decide(request, signal)
}

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

/** Each git command the line runs, as `gitAccess` judges it. */
async function accesses(line: string): Promise<(string | null)[]> {
  const analysis = await analyzeShell(line)
  return analysis.commands.map((command) => gitAccess(unwrap(command.argv).argv))
}

const WRITES = [
  'git commit -m x',
  'git -C x commit',
  'git -c a=b commit',
  'git --git-dir=.git --work-tree=. commit',
  'git --no-pager -p commit',
  'command git commit',
  'env git commit',
  'env LANG=C git commit',
  'nohup git commit',
  'timeout 5 git commit',
  'nice -n 5 time git commit',
  '/usr/bin/git commit',
  './bin/git commit',
  'git "commit"',
  "'git' 'commit'",
  'git \\\ncommit',
  'git status && git commit',
  'git status; git add . && git diff --cached',
  '(cd sub && git config core.fsmonitor x)',
  "bash -c 'git commit'",
  'sh -c "git status; git push"',
  'echo $(git commit -m x)',
  'ls | while read f; do git add "$f"; done',
  'git branch -D x',
  'git branch feature',
  'git branch -m old new',
  'git branch -l feature',
  'git config core.fsmonitor x',
  'git config --unset user.name',
  'git config --add core.hooksPath x',
  'git config edit',
  'git stash',
  'git stash pop',
  'git tag v1',
  'git tag -d v1',
  'git remote add origin u',
  'git worktree add ../w',
  'git diff --output=.git/hooks/pre-commit',
  'git statusx',
  // no name is looked up where it is not listed (an alias could be called anything)
  'git constructor',
  'git toString',
  'git __proto__',
  ...[
    'fetch',
    'pull',
    'push',
    'checkout x',
    'switch x',
    'reset --hard',
    'merge x',
    'rebase x',
    'add .',
    'rm x',
    'mv a b',
    'init',
    'clone u',
    'gc',
    'cherry-pick x',
    'restore x',
    'update-ref HEAD x'
  ].map((sub) => `git ${sub}`)
]

// What git is asked cannot be known before the line runs: not proven to read, so a write.
const UNPROVEN = [
  'git $(echo commit)',
  'git "$SUB"',
  'git $SUB status',
  'git --exec-path=/tmp status',
  'git --bogus status',
  'git branch $NAME',
  'git stash "$VERB"'
]

const READS = [
  'git',
  'git --version',
  'git status',
  'git status --short',
  'git -C sub status',
  'git --no-pager log --oneline -5',
  'git -c core.pager=cat log',
  'git log -- "$f"',
  'git log $REV',
  'git diff $(git merge-base main HEAD)',
  'git diff HEAD~1 -- src',
  'git show HEAD:README.md',
  'git rev-parse --show-toplevel',
  'git ls-files -z',
  "git for-each-ref --format='%(refname)'",
  'git branch',
  'git branch -a',
  'git branch -vv',
  'git branch --list "feat*"',
  'git branch --show-current',
  'git branch --contains HEAD',
  'git tag',
  'git tag -l "v*"',
  'git remote',
  'git remote -v',
  'git stash list',
  'git stash show -p',
  'git config --get user.name',
  'git config --global --list',
  'git config -l',
  'git config --get-regexp "^remote"',
  'git config user.name',
  'git worktree list --porcelain',
  'git commit -h',
  'git push --help',
  '/usr/bin/git status'
]

describe('which git lines write into .git', () => {
  it.each(WRITES)('%j writes', async (line) => {
    expect(await accesses(line)).toContain('write')
  })

  it.each(UNPROVEN)('%j cannot be proven to read', async (line) => {
    expect(await accesses(line)).toContain('unproven')
  })

  it.each(READS)('%j only reads', async (line) => {
    const found = (await accesses(line)).filter((a) => a !== null)
    expect(found.length).toBeGreaterThan(0)
    expect(new Set(found)).toEqual(new Set(['read']))
  })

  it('does not take other programs for git', async () => {
    expect(await accesses('gitx commit')).toEqual([null])
    expect(await accesses('echo git commit')).toEqual([null])
    expect(await accesses('command -v git')).toEqual([null])
  })
})

describe('a git write through the gate', () => {
  const allowGit: PermissionRule[] = [{ tool: 'Shell', command: 'git', decision: 'allow' }]
  const allowShell: PermissionRule[] = [{ tool: 'Shell', decision: 'allow' }]

  it('needs a person in every mode, whatever allows it otherwise', async () => {
    const policies: Partial<GatePolicy>[] = [
      { mode: 'ask' },
      { mode: 'ask', autoApprove: true },
      { mode: 'allow' },
      { mode: 'allow', autoApprove: true },
      { mode: 'allow', autoApprove: true, rules: allowGit },
      { mode: 'ask', rules: allowShell }
    ]
    for (const line of [...WRITES, ...UNPROVEN, 'echo hi > .git/config']) {
      for (const policy of policies) {
        expect(await decide(line, policy), `${line} ${JSON.stringify(policy)}`).toMatchObject({
          allowed: false,
          refusedBy: 'approver'
        })
      }
    }
  })

  it('is refused headless with a sentence that says why and what to do', async () => {
    const verdict = await decide('git -C sub commit -m x', {
      mode: 'allow',
      autoApprove: true,
      rules: allowGit
    })
    expect(verdict.allowed === false && verdict.reason).toBe(
      "Shell needs a person's approval (`git -C sub commit -m x` writes into the repository's .git folder, where a change can make git run programs (hooks, core.fsmonitor); a person must approve it), and nobody is available to approve it in this headless run. Do not retry; say what you would have done instead."
    )
  })

  it('runs once a person approves, marked as a .git write, and offers no rule', async () => {
    const person = yesPerson()
    expect(await decide('git status && git commit -m x', { mode: 'allow' }, person)).toEqual({
      allowed: true,
      by: 'approver',
      gitWrite: true
    })
    expect(person.reasons).toEqual([
      "`git commit -m x` writes into the repository's .git folder, where a change can make git run programs (hooks, core.fsmonitor); a person must approve it"
    ])
    expect(person.requests[0]?.ruleCanAllow).toBe(false)
    // A redirection into .git, approved, may write there too.
    expect(await decide('echo x > .git/info/exclude', { mode: 'ask' }, person)).toEqual({
      allowed: true,
      by: 'approver',
      gitWrite: true
    })
  })

  it('says an unknown subcommand may write, and names what else needs a person', async () => {
    const person = yesPerson()
    await decide('git $(echo commit)', { mode: 'allow' }, person)
    await decide('PATH=/tmp; git commit', { mode: 'allow' }, person)
    expect(person.reasons[0]).toBe(
      "`git $(echo commit)` may write into the repository's .git folder (what it asks of git is only known when it runs), where a change can make git run programs (hooks, core.fsmonitor); a person must approve it"
    )
    expect(person.reasons[1]).toMatch(
      /^`git commit` writes into the repository's \.git folder, .*; also, `PATH=\/tmp` changes PATH/
    )
  })

  it('is not marked for a command whose name is an expansion: asked, .git stays read-only', async () => {
    // `$g` could be git, but what the person approves is an unknown command, not a git write.
    expect(await decide('g=git; $g commit', { mode: 'allow', autoApprove: true })).toMatchObject({
      allowed: false,
      refusedBy: 'approver'
    })
    expect(await decide('g=git; $g commit', { mode: 'allow' }, yesPerson())).toEqual({
      allowed: true,
      by: 'approver'
    })
  })

  it('keeps the order: forbid rules, read-only mode and planning refuse before anyone is asked', async () => {
    const person = yesPerson()
    const forbid: PermissionRule[] = [{ tool: 'Shell', command: 'git commit', decision: 'forbid' }]
    expect(await decide('git commit', { mode: 'allow', rules: forbid }, person)).toMatchObject({
      refusedBy: 'rule'
    })
    expect(await decide('git commit', { mode: 'read-only' }, person)).toMatchObject({
      refusedBy: 'mode'
    })
    expect(await decide('git commit', { mode: 'allow', planning: true }, person)).toMatchObject({
      refusedBy: 'planning'
    })
    expect(person.reasons).toEqual([])
  })

  it('leaves reads to the rules and the mode', async () => {
    for (const line of READS) {
      expect(await decide(line, { mode: 'allow' }), line).toEqual({ allowed: true, by: 'mode' })
      // A program named by its path might not be the git the rule means, so that one asks.
      if (line.startsWith('/')) continue
      expect(await decide(line, { mode: 'ask', rules: allowGit }), line).toEqual({
        allowed: true,
        by: 'rule'
      })
    }
    // A read beside a redirection is still an ordinary write into the folder.
    expect(await decide('git -C sub log > log.txt', { mode: 'allow' })).toEqual({
      allowed: true,
      by: 'mode'
    })
  })

  it('tells `rules check` the truth: an allow rule does not cover a git write', async () => {
    const verdict = await judgeShell('git commit -m x', allowGit, 'Shell', { workspace })
    expect(verdict).toMatchObject({ decision: 'prompt', concern: true, gitWrite: true })
  })
})
