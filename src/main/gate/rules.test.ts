import { describe, expect, it } from 'vitest'
import { checkRuleExamples, judgeShell, judgeTool, type PermissionRule } from './rules'

const rules: PermissionRule[] = [
  { tool: 'Shell', command: 'git status', decision: 'allow' },
  { tool: 'Shell', command: 'git push', decision: 'prompt' },
  { tool: 'Shell', command: 'rm', decision: 'forbid' }
]

type Expected = 'allow' | 'prompt' | 'forbid' | null

// Only lines that run nothing but `git status` may come out `allow`.
const table: [string, Expected][] = [
  // plain commands
  ['git status', 'allow'],
  ['git status --short', 'allow'],
  ['git  status   -sb', 'allow'],
  ["'git' 'status'", 'allow'],
  ['"git" "status"', 'allow'],
  ['g\\it sta\\tus', 'allow'],
  ['git status # a comment', 'allow'],
  ['git status 2>/dev/null', 'allow'],
  ['git status 2>&1', 'allow'],
  ['git status >/dev/null 2>&1', 'allow'],
  ['git status < /dev/null', 'allow'],
  ['git push', 'prompt'],
  ['git push origin main --force', 'prompt'],
  ['rm file.txt', 'forbid'],
  ['rm -rf /', 'forbid'],
  ['ls', null],
  ['git log', null],
  ['git', null],
  ['gitstatus', null],
  // not a subcommand known to only read, so it may write into .git
  ['git statusx', 'prompt'],
  // compound commands: every simple command must be allowed
  ['git status; git status', 'allow'],
  ['git status && git status', 'allow'],
  ['git status; rm x', 'forbid'],
  ['git status && rm -rf .', 'forbid'],
  ['git status || rm -rf .', 'forbid'],
  ['git status | rm x', 'forbid'],
  ['git status | grep modified', null],
  ['git status\nrm x', 'forbid'],
  ['git status\ngit push', 'prompt'],
  ['git status & rm x', 'forbid'],
  ['(git status)', 'allow'],
  ['(git status; rm x)', 'forbid'],
  ['{ git status; rm x; }', 'forbid'],
  ['if git status; then rm x; fi', 'forbid'],
  ['while true; do git status; done', null],
  ['for f in a b; do rm "$f"; done', 'forbid'],
  ['case x in x) rm y;; esac', 'forbid'],
  ['f() { rm x; }; git status', 'forbid'],
  ['! git status', 'allow'],
  // substitutions run commands too
  ['git status $(rm x)', 'forbid'],
  ['git status `rm x`', 'forbid'],
  ['git status "$(rm x)"', 'forbid'],
  ['echo ${x:-$(rm y)}', 'forbid'],
  ['git status <(rm x)', 'forbid'],
  ['x=$(rm y)', 'forbid'],
  // What a substitution prints only adds arguments to an allowed command; its own commands count.
  ['git status $(git status)', 'allow'],
  ['git status $(git push)', 'prompt'],
  // expansions that hide what runs
  ['$CMD status', 'prompt'],
  ['$(echo git) status', 'prompt'],
  ['${GIT} status', 'prompt'],
  ['git $SUB', 'prompt'],
  ['git "$SUB"', 'prompt'],
  ['g$x status', 'prompt'],
  ['eval "git status"', 'prompt'],
  ['exec git status', 'prompt'],
  ['source script.sh', 'prompt'],
  ['. ./script.sh', 'prompt'],
  // redirections to files
  ['git status > out.txt', 'prompt'],
  ['git status >> log.txt', 'prompt'],
  ['git status &> all.txt', 'prompt'],
  ['git status >| out.txt', 'prompt'],
  ['git status 2> err.txt', 'prompt'],
  ['git status > "$HOME/x"', 'prompt'],
  // environment prefixes
  ['LANG=C git status', 'allow'],
  ['GIT_DIR=/tmp/x git status', 'prompt'],
  ['GIT_SSH_COMMAND="rm -rf /" git status', 'prompt'],
  ['LD_PRELOAD=/tmp/evil.so git status', 'prompt'],
  ['PATH=/tmp/bin:$PATH git status', 'prompt'],
  ['BASH_ENV=/tmp/x bash -c "git status"', 'prompt'],
  // wrappers are looked through
  ['timeout 5 git status', 'allow'],
  ['timeout -s KILL 10s git status', 'allow'],
  ['nice -n 10 git status', 'allow'],
  ['nohup git status', 'allow'],
  ['time git status', 'allow'],
  ['env git status', 'allow'],
  ['env LANG=C git status', 'allow'],
  ['env GIT_DIR=x git status', 'prompt'],
  ['timeout 5 rm x', 'forbid'],
  ['nice nohup timeout 3 rm x', 'forbid'],
  ['env -S "rm x"', 'prompt'],
  ['timeout --bogus 5 git status', 'prompt'],
  // nested shells
  ['bash -c "git status"', 'allow'],
  ["sh -c 'git status; rm x'", 'forbid'],
  ['bash -c "$SCRIPT"', 'prompt'],
  ['bash script.sh', 'prompt'],
  ['bash', 'prompt'],
  // quoting and line continuations
  ['git status "a;rm x"', 'allow'],
  ["git status 'rm x'", 'allow'],
  ['git \\\nstatus', 'allow'],
  ['echo "git status"', null],
  ['git status \\; rm x', 'allow'],
  // unparsable
  ['git status (', 'prompt'],
  ['git status "unterminated', 'prompt'],
  // substitutions inside a redirection of a simple command run too
  ['< <(rm x) git status', 'forbid'],
  ['<$(rm x) git status', 'forbid'],
  ['<`rm x` git status', 'forbid'],
  ['git status > >(rm x)', 'forbid'],
  // a variable that decides what later commands run, changed anywhere on the line
  ['PATH=/tmp; git status', 'prompt'],
  ['export PATH=/tmp; git status', 'prompt'],
  ['declare -x PATH=/tmp; git status', 'prompt'],
  ['typeset PATH=/tmp; git status', 'prompt'],
  ['readonly PATH=/tmp; git status', 'prompt'],
  ['f() { local PATH=/tmp; git status; }; f', 'prompt'],
  ['unset PATH; git status', 'prompt'],
  ['export -n PATH; git status', 'prompt'],
  ['IFS=x; git status', 'prompt'],
  ['export GIT_DIR=x; git status', 'prompt'],
  ['LD_PRELOAD=x; git status', 'prompt'],
  ['(PATH=/tmp; git status)', 'prompt'],
  ["bash -c 'export PATH=/tmp; git status'", 'prompt'],
  ['git status; export PATH=/tmp', 'prompt'],
  ['LANG=C; git status', 'allow'],
  // words after a redirection are still arguments; a program by its path may be the same one
  ['git >/dev/null push', 'prompt'],
  ['rm 2>/dev/null -rf x', 'forbid'],
  ['/bin/rm x', 'prompt'],
  ['/tmp/git status', null],
  ['cat <<EOF | rm x\nhi\nEOF', 'forbid']
]

describe('judgeShell', () => {
  it.each(table)('%j → %s', async (line, expected) => {
    const verdict = await judgeShell(line, rules)
    expect(verdict.decision, verdict.reason).toBe(expected)
  })

  it('covers at least 60 commands, and allows none that runs anything besides git status', () => {
    expect(table.length).toBeGreaterThanOrEqual(60)
  })

  it('says why a line is not allowed', async () => {
    expect((await judgeShell('git status > out.txt', rules)).reason).toBe(
      '`> out.txt` writes output to a file'
    )
    expect((await judgeShell('git status; rm -rf .', rules)).reason).toBe(
      '`rm -rf .` matches the rule "rm" (forbid)'
    )
  })

  it('lets a rule for the whole tool apply to every command, the strictest winning', async () => {
    const all: PermissionRule[] = [...rules, { tool: 'Shell', decision: 'allow' }]
    expect((await judgeShell('ls -la', all)).decision).toBe('allow')
    expect((await judgeShell('ls; rm x', all)).decision).toBe('forbid')
    expect((await judgeShell('ls > f', all)).decision).toBe('prompt')
  })
})

describe('judgeTool', () => {
  it('applies the strictest rule for a tool, and none for tools no rule names', () => {
    const toolRules: PermissionRule[] = [
      { tool: 'Write', decision: 'allow' },
      { tool: 'Write', decision: 'prompt' }
    ]
    expect(judgeTool('Write', toolRules).decision).toBe('prompt')
    expect(judgeTool('Read', toolRules).decision).toBeNull()
  })
})

describe('checkRuleExamples', () => {
  it('accepts examples that hold and reports the ones that do not', async () => {
    const checked = await checkRuleExamples([
      { tool: 'Shell', command: 'git push', decision: 'prompt', match: ['git push origin'] },
      { tool: 'Shell', command: 'npm test', decision: 'allow', match: ['npm run test'] },
      { tool: 'Shell', command: 'rm', decision: 'forbid', not_match: ['timeout 1 rm x'] },
      { tool: 'Shell', command: 'git status; rm', decision: 'allow' }
    ])
    expect(checked).toEqual([
      { index: 1, message: 'the rule "npm test" does not match its example "npm run test"' },
      { index: 2, message: 'the rule "rm" matches "timeout 1 rm x", listed under not_match' },
      {
        index: 3,
        message:
          '"git status; rm" must be one plain command (words only, no operators or redirections)'
      }
    ])
  })
})
