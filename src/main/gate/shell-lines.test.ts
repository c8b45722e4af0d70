import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ApprovalMode } from '../../shared/domain'
import { defineTool, noCapabilities, textOutput, type Tool } from '../tools/tool'
import { Gate, nobodyToAsk, type Approver, type GateRequest } from './gate'
import type { PermissionRule } from './rules'
import { judgeShell } from './rules'
import { makeFifo } from '../../../testing/fifo'
import { plainFacts } from '../../../testing/stand-in-tools'

// The Shell tool as the gate sees it; the gate is what is under test, not running the command.
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

const rules: PermissionRule[] = [
  { tool: 'Shell', command: 'git status', decision: 'allow' },
  { tool: 'Shell', command: 'ls', decision: 'allow' },
  { tool: 'Shell', command: 'echo', decision: 'allow' },
  { tool: 'Shell', command: 'cat', decision: 'allow' },
  { tool: 'Shell', command: 'git push', decision: 'prompt' },
  { tool: 'Shell', command: 'rm', decision: 'forbid' }
]

/**
 * What became of a line: run by a `rule`, by the `mode`, by `yes` (--yes answered the mode's
 * question); or it needs a `person` (refused here, as nobody can answer), or a rule `forbid`s it.
 */
type Outcome = 'rule' | 'mode' | 'yes' | 'person' | 'forbid' | 'refused'
/** Ask mode, ask mode with --yes, allow mode with --yes. */
type Expected = readonly [Outcome, Outcome, Outcome]

const RULE: Expected = ['rule', 'rule', 'rule']
/** No rule covers it: ask mode asks (--yes answers), allow mode runs it. */
const MODE: Expected = ['person', 'yes', 'mode']
/** A person must approve it, whatever the mode and --yes. */
const PERSON: Expected = ['person', 'person', 'person']
const FORBID: Expected = ['forbid', 'forbid', 'forbid']

let workspace: string
const signal = new AbortController().signal

async function outcome(
  line: string,
  mode: ApprovalMode,
  yes: boolean,
  approver: Approver = nobodyToAsk
): Promise<Outcome> {
  const gate = new Gate({ mode, rules, workspace, autoApprove: yes }, approver)
  const request: GateRequest = {
    sessionId: 's',
    callId: 'c',
    tool: shell,
    input: { command: line }
  }
  const decision = await gate.decide(request, signal)
  if (decision.allowed) return decision.by === 'approver' ? 'person' : decision.by
  if (decision.refusedBy === 'approver') return 'person'
  if (decision.refusedBy === 'rule') return 'forbid'
  return 'refused'
}

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-shell-lines-')))
  await mkdir(path.join(workspace, '.git', 'hooks'), { recursive: true })
  await writeFile(path.join(workspace, '.git', 'config'), '[core]\n')
  await mkdir(path.join(workspace, 'sub'))
  await writeFile(path.join(workspace, 'notes.txt'), 'notes\n')
  await symlink('.git', path.join(workspace, 'g'))
  await symlink(os.tmpdir(), path.join(workspace, 'tmp-link'))
  await symlink('.git/hooks/post-merge', path.join(workspace, 'dangling'))
  makeFifo(path.join(workspace, 'fifo'))
  await link(path.join(workspace, '.git', 'config'), path.join(workspace, 'hard-link'))
})
afterAll(async () => rm(workspace, { recursive: true, force: true }))

const table: [string, Expected][] = [
  // substitutions inside a redirection are commands too
  ['< <(rm x) ls', FORBID],
  ['<$(rm x) ls', FORBID],
  ['<`rm x` cat', FORBID],
  ['ls > $(rm x)', FORBID],
  ['< <(touch x) ls', MODE],
  ['cat <<EOF | rm x\nhi\nEOF', FORBID],
  // reading: a file is harmless; a network device or a path not known is not
  ['cat < notes.txt', RULE],
  ['ls < /dev/null', RULE],
  ['cat < /dev/tcp/1.2.3.4/80', PERSON],
  ['cat < "$F"', PERSON],
  // assignments that change what later commands run, in any form and anywhere on the line
  ['PATH=/tmp; ls', PERSON],
  ['PATH=/tmp ; git status', PERSON],
  ['export PATH=/tmp; ls', PERSON],
  ['export -- PATH=/tmp; ls', PERSON],
  ['declare -x PATH=/tmp; ls', PERSON],
  ['declare -g -x PATH=/tmp; ls', PERSON],
  ['typeset PATH=/tmp; ls', PERSON],
  ['readonly PATH=/tmp; ls', PERSON],
  ['f() { local PATH=/tmp; ls; }; f', PERSON],
  ['unset PATH; ls', PERSON],
  ['unset -v IFS; ls', PERSON],
  ['export -n PATH; ls', PERSON],
  ['export PATH; ls', PERSON],
  ['IFS=x; ls', PERSON],
  ['export GIT_DIR=x; git status', PERSON],
  ['GIT_CONFIG_PARAMETERS="x"; export GIT_CONFIG_PARAMETERS; git status', PERSON],
  ['LD_PRELOAD=x; ls', PERSON],
  ['DYLD_INSERT_LIBRARIES=x; ls', PERSON],
  ['BASH_ENV=x; ls', PERSON],
  ['ENV=x; ls', PERSON],
  ['PYTHONPATH=x; ls', PERSON],
  ['NODE_OPTIONS=x; ls', PERSON],
  ['PERL5OPT=x; ls', PERSON],
  ['RUBYOPT=x; ls', PERSON],
  ['XDG_CONFIG_HOME=/tmp; git status', PERSON],
  ['A=1 PATH=/tmp; ls', PERSON],
  ['PATH+=:/tmp; ls', PERSON],
  ['PATH[0]=/tmp; ls', PERSON],
  ['export "PATH=/tmp"; ls', PERSON],
  ['export "$NAME"=/tmp; ls', PERSON],
  ['unset $NAME; ls', PERSON],
  ['declare -n ref=PATH; ref=/tmp; ls', PERSON],
  ['for PATH in /tmp; do ls; done', PERSON],
  ['select IFS in x; do ls; done', PERSON],
  ['for ((IFS=0; ; )); do ls; done', PERSON],
  ['echo $((IFS=1)); ls', PERSON],
  ['echo ${PATH:=/tmp}; ls', PERSON],
  ['read PATH; ls', PERSON],
  ['printf -v PATH /tmp; ls', PERSON],
  ['env -u PATH ls', PERSON],
  ['env PATH=/tmp ls', PERSON],
  // the shell's own exit trap runs after the last command, so a trailing change counts too
  ['ls; export PATH=/tmp', PERSON],
  // nested: subshells, functions, groups, `bash -c`
  ['(PATH=/tmp; ls)', PERSON],
  ['{ IFS=x; ls; }', PERSON],
  ['f() { export PATH=/tmp; }; f; ls', PERSON],
  ["bash -c 'export PATH=/tmp; ls'", PERSON],
  ['bash -c "unset IFS; ls"', PERSON],
  ['sh -c \'bash -c "LD_PRELOAD=x; ls"\'', PERSON],
  // harmless names and values stay allowed
  ['export LANG=C; ls', RULE],
  ['X=1; ls', RULE],
  ['for f in a b; do echo "$f"; done', RULE],
  // redirection targets
  ['echo hi > out.txt', MODE],
  ['echo hi >> sub/log.txt', MODE],
  ['echo hi &> all.txt', MODE],
  ['echo hi >| clobber.txt', MODE],
  ['echo hi >& both.txt', MODE],
  ['echo hi 2> err.txt', MODE],
  ['git status > status.txt', MODE],
  ['echo hi > ./sub/../out.txt', MODE],
  ['echo hi > ../x', PERSON],
  ['echo hi > /tmp/x', PERSON],
  ['echo hi > tmp-link/x', PERSON],
  ['echo hi > /dev/tcp/1.2.3.4/80', PERSON],
  ['echo hi > /dev/sda', PERSON],
  ['echo hi > .git/config', PERSON],
  ['echo hi >> .git/hooks/pre-commit', PERSON],
  ['echo hi > .git/info/exclude', PERSON],
  ['echo hi > .git', PERSON],
  ['echo hi > g/config', PERSON],
  ['echo hi > ./.git/../.git/config', PERSON],
  ['echo hi > .GIT/config', PERSON],
  ['echo hi > sub/.git/config', PERSON],
  ['echo hi > .gi{t..t}/config', PERSON],
  ['echo hi > .g*/config', PERSON],
  ['echo hi > .gi?/config', PERSON],
  ['echo hi > ~/x', PERSON],
  ['echo hi > "$HOME/x"', PERSON],
  ['echo hi > x$(echo y)', PERSON],
  ['cd /tmp && echo > x', PERSON],
  ['cd sub; ls; echo hi > x', PERSON],
  ['pushd /tmp; echo hi > x', PERSON],
  ['cd sub && echo hi > /dev/null', MODE],
  ['f() { echo hi > .git/config; }; f', PERSON],
  ["bash -c 'echo hi > .git/config'", PERSON],
  ['(echo hi > g/hooks/post-checkout)', PERSON],
  ['echo hi > /dev/null', RULE],
  ['echo hi 2>&1', RULE],
  ['echo hi >&2', RULE],
  ['echo hi > /dev/stderr', RULE],
  // a stream opened again reopens what its descriptor holds: after `1<file`, that file
  ['echo hi 1<notes.txt >/dev/stdout', PERSON],
  ['echo hi 0<.git/config >/dev/stdin', PERSON],
  ['{ echo hi > /dev/fd/2; } 2<notes.txt', PERSON],
  ['cat < notes.txt > /dev/stdout', PERSON],
  ['cat < /dev/null > /dev/stdout', RULE],
  ['ls >&-', RULE],
  // a word after a redirection is still an argument of its command
  ['git >/dev/null push', PERSON],
  ['git 2>/dev/null push origin', PERSON],
  ['rm >/dev/null x', FORBID],
  ['echo > out.txt hi; git push', PERSON],
  ['echo hi > out.txt; rm x', FORBID],
  ['/bin/rm x', PERSON],
  // pipes to commands are judged as the commands they are
  ['echo hi > >(rm x)', FORBID],
  ['echo hi > >(cat)', RULE],
  ['cat < <(echo hi)', RULE],
  // here-documents
  ['cat <<EOF > .git/config\n[core]\nEOF', PERSON],
  ["cat <<'EOF' > out.txt\nhi\nEOF", MODE],
  // what is at the target: a FIFO, a dangling link into .git
  ['echo hi > fifo', PERSON],
  ['echo hi > dangling', PERSON],
  ['echo hi >> hard-link', PERSON],
  // builtins that change what a later command name runs
  ['hash -p /tmp/evil ls; ls', PERSON],
  ['enable -n echo; echo hi', PERSON],
  ['getopts ab PATH; ls', PERSON],
  ['let IFS=1; ls', PERSON],
  ['((IFS=1)); ls', PERSON],
  // arithmetic runs code hidden in a variable's value (`x='a[$(rm -rf ~)]'`)
  ["x='a[$(rm y)]'; echo $((x))", PERSON],
  ['read x < notes.txt; echo $(( x + 1 ))', PERSON],
  ['echo $((n++))', PERSON],
  ['((x)); ls', PERSON],
  ['let x; ls', PERSON],
  ['[[ $x -eq 0 ]] && ls', PERSON],
  ['[[ x -gt 1 ]] && ls', PERSON],
  ['echo ${a[x]}', PERSON],
  ['echo ${s:x}', PERSON],
  ['a[i]=1; ls', PERSON],
  ['declare -i n; n=x; ls', PERSON],
  ["printf -v 'a[x]' hi; ls", PERSON],
  ["[ -v 'a[x]' ] && ls", PERSON],
  ['[ -v "$name" ] && ls', PERSON],
  ["unset 'a[x]'; ls", PERSON],
  ['for ((i = 0; i < 3; i++)); do ls; done', PERSON],
  // literal numbers and numeric specials are harmless
  ['echo $((1 + 2))', RULE],
  ['echo $(( $? + 1 ))', RULE],
  ['[[ $# -gt 0 ]] && ls', RULE],
  ['[ "$x" -eq 0 ] && ls', RULE],
  ['echo ${a[1]} ${a[@]} ${#a[*]}', RULE],
  ["printf '%s [x]' hi", MODE],
  ['PATH[0]=/tmp git status', PERSON]
]

describe('shell lines through the gate, with allow rules for git status, ls, echo and cat', () => {
  it.each(table)('%j → ask, ask --yes, allow --yes: %j', async (line, expected) => {
    const got = [
      await outcome(line, 'ask', false),
      await outcome(line, 'ask', true),
      await outcome(line, 'allow', true)
    ]
    expect(got).toEqual(expected)
  })

  it('refuses every line in read-only mode', async () => {
    expect(await outcome('echo hi > out.txt', 'read-only', true)).toBe('refused')
  })

  it('leaves a redirection into the project folder to the mode, even under a rule for all of Shell', async () => {
    const all: PermissionRule[] = [{ tool: 'Shell', decision: 'allow' }]
    const verdict = await judgeShell('ls > out.txt', all, 'Shell', { workspace })
    expect(verdict.decision).toBeNull()
    expect(verdict.reason).toBe(
      '`> out.txt` writes out.txt in the project folder, which no command rule covers'
    )
  })

  it('says plainly why a write into .git, outside the folder or after a risky assignment needs a person', async () => {
    const reason = async (line: string): Promise<string> =>
      (await judgeShell(line, rules, 'Shell', { workspace })).reason
    expect(await reason('echo hi > .git/config')).toBe(
      "`> .git/config` writes into the repository's .git folder, where a change can make git run programs (hooks, core.fsmonitor); a person must approve it"
    )
    expect(await reason('echo hi > g/config')).toBe(
      "`> g/config` leads into the repository's .git folder (.git/config), where a change can make git run programs (hooks, core.fsmonitor); a person must approve it"
    )
    expect(await reason('echo hi > /tmp/x')).toMatch(
      /^`> \/tmp\/x` writes outside the project folder/
    )
    expect(await reason('PATH=/tmp; ls')).toBe(
      '`PATH=/tmp` changes PATH, which can change what every later command on the line runs; a person must approve it'
    )
    expect(await reason('unset IFS; ls')).toBe(
      '`unset IFS` changes IFS, which can change what every later command on the line runs; a person must approve it'
    )
  })

  it('asks the person about a .git write or a file write without offering a rule, as none could allow it', async () => {
    const asked: GateRequest[] = []
    const person: Approver = {
      canAsk: true,
      ask: async (request) => {
        asked.push(request)
        return { decision: 'allow' }
      }
    }
    expect(await outcome('echo hi > .git/config', 'allow', true, person)).toBe('person')
    expect(asked[0]?.ruleCanAllow).toBe(false)
    // Nor for an ordinary write, which no command rule covers either; a plain command gets one.
    expect(await outcome('echo hi > out.txt', 'ask', false, person)).toBe('person')
    expect(asked[1]?.ruleCanAllow).toBe(false)
    expect(await outcome('touch x', 'ask', false, person)).toBe('person')
    expect(asked[2]?.ruleCanAllow).toBeUndefined()
  })

  it('a write on a line where another command could first make its name a link needs a person', async () => {
    for (const line of [
      'ln -s .git/config x; echo evil > x',
      'mv .git g && echo "[core] fsmonitor = evil" >> g/config; mv g .git',
      'git checkout evil-branch && echo hi > lnk',
      'echo $(ln -sf .git/hooks/post-merge x) > x',
      'timeout 5 ln -s .git/config y | echo > y'
    ]) {
      expect(await outcome(line, 'allow', true), line).toBe('person')
    }
    // Beside commands that never create, move or link a name, the write is still an ordinary one.
    for (const line of [
      'echo a > out.txt; echo b >> out.txt',
      'git status && git diff > changes.diff',
      'ls -la | sort > listing.txt'
    ]) {
      expect(await outcome(line, 'allow', true), line).toBe('mode')
    }
  })
})
