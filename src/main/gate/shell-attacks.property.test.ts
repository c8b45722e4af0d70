// Nested constructs around a hidden `touch PWNED`, generated from a seed: however deep the
// substitutions, here-documents, backticks, wrappers, assignments and option tricks, a line
// that runs it is never allowed, under allow rules for every program the generator uses
// (`eval`, `bash` and `find` included). Inert nestings (quoted, commented) stay allowed, so the
// judge is not passing by asking about everything. A failure prints its seed and line.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SeededRandom } from '../../../testing/fuzz-inputs'
import { allowing, gitWorkspace, judged } from '../../../testing/shell-verdicts'

const HIDDEN = 'touch PWNED'
const rules = allowing(
  ...['ls', 'echo', 'cat', 'true', 'printf', 'grep', 'find', 'awk', 'sed', 'xargs', 'nohup'],
  ...['timeout', 'env', 'sudo', 'bash', 'sh', 'mapfile', 'trap', 'eval', 'builtin', 'command'],
  ...['f', 'rg', 'git', 'tar', 'sort', 'man', 'stdbuf', 'nice', 'setsid', 'time', 'perl']
)

const single = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`
const double = (s: string): string => `"${s.replace(/[\\"$`]/g, '\\$&')}"`
const backticked = (s: string): string => `\`${s.replace(/[\\`]/g, '\\$&')}\``

/** Each turns a command line that runs the hidden command into another one that does. */
const WRAPS: ((c: string, r: SeededRandom) => string)[] = [
  (c) => `echo $(${c})`,
  (c) => `echo "$(${c})"`,
  (c) => `echo ${backticked(c)}`,
  (c) => `echo "${backticked(c)}"`,
  (c) => `cat <(${c})`,
  (c) => `< <(${c}) ls`,
  (c) => `ls > >(${c})`,
  (c) => `${c} | cat`,
  (c) => `ls && ${c}`,
  (c) => `true || ls; ${c}`,
  (c) => `(${c})`,
  (c) => `{ ${c}; }`,
  (c) => `f() { ${c}; }; f`,
  (c) => `if true; then ${c}; fi`,
  (c) => `for i in 1; do ${c}; done`,
  (c) => `while true; do ${c}; break; done`,
  (c) => `case x in x) ${c};; esac`,
  (c) => `bash -c ${single(c)}`,
  (c) => `sh -c ${double(c)}`,
  (c, r) =>
    `${r.pick(['nohup', 'timeout 5', 'env X=1', 'nice -n 3', 'stdbuf -oL', 'setsid', 'time', 'sudo'])} bash -c ${single(c)}`,
  (c) => `xargs -I{} sh -c ${single(c)}`,
  (c) => `eval ${single(c)}`,
  (c, r) => `${r.pick(['builtin', 'command', 'command -p'])} eval ${single(c)}`,
  (c) => `x=${single(`$(${c})`)}; echo \${x@P}`,
  (c) => `x=${single(`a[$(${c})]`)}; echo \${!x}`,
  (c) => `echo \${x:-$(${c})}`,
  (c) => `echo \${x#$(${c})}`,
  (c) => `echo \${x%%${backticked(c)}}`,
  (c) => `echo \${x/$(${c})/y}`,
  (c) => `cat <<EOF\n$(${c})\nEOF`,
  (c) => `cat <<EOF\n${backticked(c)}\nEOF`,
  (c) => `cat <<< "$(${c})"`,
  (c) => `echo > "$(${c})"`,
  (c) => `a=$(${c}); echo "$a"`,
  (c) => `[[ -n $(${c}) ]] && ls`,
  (c) => `case $(${c}) in *) ls;; esac`,
  (c) => `trap ${single(c)} EXIT; ls`,
  (c) => `mapfile -C ${single(`${c} #`)} -c 1 x < notes`,
  (c) => `find . -exec sh -c ${single(c)} ';'`,
  (c) => `awk ${single(`BEGIN{system(${JSON.stringify(c)})}`)}`,
  (c) => `sed ${single(`1e ${c.replace(/\n/g, ' ')}`)} notes`,
  (c) => `rg --pre=${single(c)} x`,
  (c) => `git -c core.pager=${single(c)} log`,
  (c) => `tar --to-command=${single(c)} -xf a.tar`,
  (c) => `man -P ${single(c)} ls`,
  (c) => `perl -e ${single(`system(${JSON.stringify(c)})`)}`,
  (c) => `BASH_CMDS=([ls]=/bin/sh); echo ${single(c)} > s; ls s`,
  (c) => `PS4=${single(`$(${c})`)}; set -x; ls`
]

/** Each turns any text into a line that only prints or ignores it. */
const INERT: ((c: string) => string)[] = [
  (c) => `echo ${single(c)}`,
  (c) => `printf '%s\\n' ${single(c)}`,
  // a delimiter the nestings never use, so the body cannot end early
  (c) => `cat <<'QUOTED_END'\n${c}\nQUOTED_END`,
  (c) => `ls # ${c.replace(/\n/g, ' ')}`,
  (c) => `grep -c ${single(c)} notes`,
  (c) => `x=${single(c)}; echo "$x"`
]

let workspace: string
beforeAll(async () => {
  workspace = await gitWorkspace('mecatl-shell-property-')
})
afterAll(async () => rm(workspace, { recursive: true, force: true }))

function nested(seed: number): string {
  const random = new SeededRandom(seed)
  let line = HIDDEN
  const depth = random.int(1, 4)
  for (let i = 0; i < depth; i++) line = random.pick(WRAPS)(line, random)
  return line
}

describe('a generated line that runs a hidden command', () => {
  it('is never allowed, across 600 seeded nestings', async () => {
    for (let seed = 1; seed <= 600; seed++) {
      const line = nested(seed)
      const { verdict, reason } = await judged(line, rules, workspace)
      expect(verdict, `seed ${seed}: ${JSON.stringify(line)} (${reason})`).not.toBe('allow')
    }
  })

  it('is allowed when every nesting only quotes it', async () => {
    for (let seed = 1; seed <= 120; seed++) {
      const random = new SeededRandom(seed)
      let line = nested(seed)
      line = random.pick(INERT)(line)
      const { verdict, reason } = await judged(line, rules, workspace)
      expect(verdict, `seed ${seed}: ${JSON.stringify(line)} (${reason})`).toBe('allow')
    }
  })
})
