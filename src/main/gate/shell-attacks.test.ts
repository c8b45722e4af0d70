// Issue #34, item 1: bash the judge does not model must never pass as harmless. Each row is a
// line and what the judge says of it under allow rules for a handful of harmless programs; a
// `person` row needs a person in every mode, whatever the rules. Option attacks on allowed
// programs are in option-attacks.test.ts; generated nestings in shell-attacks.property.test.ts.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allowing, gitWorkspace, judged, type Verdict } from '../../../testing/shell-verdicts'

const rules = allowing('ls', 'echo', 'cat', 'printf', 'grep', 'true', 'wc', 'git status')
let workspace: string

beforeAll(async () => {
  workspace = await gitWorkspace('mecatl-shell-attacks-')
})
afterAll(async () => rm(workspace, { recursive: true, force: true }))

const P = 'touch PWNED'

const hiddenCommandTable: [string, Verdict][] = [
  // variables bash reads as code or as the path of what a name runs
  ['BASH_CMDS=([ls]=/usr/bin/bash); ls payload.txt', 'person'],
  ['BASH_CMDS[ls]=/usr/bin/bash; ls payload.txt', 'person'],
  ['BASH_CMDS+=([ls]=/usr/bin/bash); ls payload.txt', 'person'],
  ['declare -A BASH_CMDS=([ls]=/usr/bin/bash); ls x', 'person'],
  ['typeset BASH_CMDS[ls]=/bin/sh; ls x', 'person'],
  ["printf -v 'BASH_CMDS[ls]' %s /bin/sh; ls x", 'person'],
  ['read -a BASH_CMDS < notes; ls', 'person'],
  ['mapfile BASH_CMDS < notes; ls', 'person'],
  ['unset BASH_CMDS; ls', 'person'],
  ['local -n r=BASH_CMDS; r[ls]=/bin/sh; ls', 'person'],
  [`BASH_ALIASES[ls]='${P}'; ls`, 'person'],
  [`BASH_ALIASES=([ls]='${P}'); ls`, 'person'],
  ['export BASH_ALIASES; ls', 'person'],
  ['EXECIGNORE=/usr/bin/ls; ls', 'person'],
  [`PS4='$(${P})'; set -x; ls`, 'person'],
  [`PS1='$(${P})'; ls`, 'person'],
  [`PS0='$(${P})'; ls`, 'person'],
  ['TEXTDOMAINDIR=/tmp; echo hi', 'person'],
  ['export TEXTDOMAIN=evil; echo hi', 'person'],
  ['for BASH_CMDS in x; do ls; done', 'person'],
  ['BASH_CMDS=x ls', 'person'],
  ['SHELL=/tmp/evil ls', 'person'],
  ["LESSOPEN='|touch PWNED' cat notes", 'person'],
  ['MANOPT=-Pbash ls', 'person'],
  ['RIPGREP_CONFIG_PATH=cfg ls', 'person'],
  ['TAR_OPTIONS=--to-command=sh ls', 'person'],
  ['VIMINIT=x ls', 'person'],
  ['env BASH_CMDS=x ls', 'person'],
  // parameter transformations: @P expands a value as a prompt, which runs its substitutions
  [`x='$(${P})'; echo \${x@P}`, 'person'],
  [`x='$(${P})'; echo "\${x@P}"`, 'person'],
  ['echo ${x@P}', 'person'],
  ['echo ${x@E}', 'person'],
  ['echo ${x@A}', 'person'],
  ['echo ${x@K}', 'person'],
  ['echo ${x@k}', 'person'],
  ['echo ${a[@]@P}', 'person'],
  ['echo ${a[0]@P}', 'person'],
  ['cat <<< ${x@P}', 'person'],
  ['cat <<< "${x@P}"', 'person'],
  ['a=(${x@P}); echo', 'person'],
  ['y=${x@P}; echo', 'person'],
  ['export y=${x@P}; echo', 'person'],
  ['local y="${x@P}"; echo', 'person'],
  ['echo $(echo ${x@P})', 'person'],
  ["bash -c 'echo ${x@P}'", 'person'],
  ['case ${x@P} in *) ls;; esac', 'person'],
  ['[[ ${x@P} == a ]] && ls', 'person'],
  ['for f in ${x@P}; do ls; done', 'person'],
  ['echo > ${x@P}', 'person'],
  ['ls ${x@P}', 'person'],
  ['echo ${x:-${y@P}}', 'person'],
  ['echo "${x:+${y@P}}"', 'person'],
  // indirect names: `${!x}` reads the variable x names, and a subscript in that name runs code
  [`x='a[$(${P})]'; echo \${!x}`, 'person'],
  ['echo "${!x}"', 'person'],
  ['echo ${!x:-y}', 'person'],
  ['echo ${!x#a}', 'person'],
  ['[[ -n ${!x} ]] && ls', 'person'],
  // pattern, substring and default operators: a substitution the parser leaves as text
  [`echo \${x#$(${P})}`, 'person'],
  [`echo \${x##$(${P})}`, 'person'],
  [`echo \${x%$(${P})}`, 'person'],
  [`echo \${x%%$(${P})}`, 'person'],
  [`echo "\${x#$(${P})}"`, 'person'],
  [`echo \${x#\`${P}\`}`, 'person'],
  [`echo \${x%%\`${P}\`}`, 'person'],
  [`echo \${x:-\`${P}\`}`, 'person'],
  [`echo \${x:$(${P})}`, 'person'],
  [`echo \${x:1:$(${P})}`, 'person'],
  ['echo ${x#$y}', 'allow'],
  ['echo ${x%.*} ${x##*/} ${x/a/b} ${x^^} ${x,,}', 'allow'],
  // …and those the parser does read: their command is judged, and no rule covers `touch`
  [`echo \${x:-$(${P})}`, 'mode'],
  [`echo \${x-$(${P})}`, 'mode'],
  [`echo \${x:=$(${P})}`, 'mode'],
  [`echo \${x:?$(${P})}`, 'mode'],
  [`echo \${x:+$(${P})}`, 'mode'],
  [`echo \${x/a/$(${P})}`, 'mode'],
  [`echo \${x//$(${P})/y}`, 'mode'],
  // nested and escaped backticks
  [`echo \`echo \\\`${P}\\\`\``, 'person'],
  [`echo "\`echo \\\`${P}\\\`\`"`, 'person'],
  [`echo \`echo \\$(${P})\``, 'person'],
  [`a=\`echo \\$(${P})\`; echo`, 'person'],
  [`echo \`echo \\\\\\\`${P}\\\\\\\`\``, 'person'],
  [`echo \`cat \\\`${P}\\\`\``, 'person'],
  [`echo $(echo \`${P}\`)`, 'mode'],
  [`echo "$(echo "\`${P}\`")"`, 'mode'],
  ['echo `echo hi`', 'allow'],
  ['echo a\\`b', 'allow'],
  // substitutions in unquoted here-document bodies
  [`cat <<EOF\n\`${P}\`\nEOF`, 'person'],
  [`cat <<EOF\nhello \`${P}\` there\nEOF`, 'person'],
  [`cat <<EOF\n$((x))\nEOF`, 'person'],
  [`cat <<EOF\n$[x]\nEOF`, 'person'],
  [`cat <<EOF\n\${x@P}\nEOF`, 'person'],
  [`cat <<EOF\n\${!x}\nEOF`, 'person'],
  [`cat <<-EOF\n\t\`${P}\`\n\tEOF`, 'person'],
  [`cat <<EOF | grep x\n\`${P}\`\nEOF`, 'person'],
  [`echo "$(cat <<EOF\n\`${P}\`\nEOF\n)"`, 'person'],
  [`x=$(cat <<EOF\n\`${P}\`\nEOF\n); echo`, 'person'],
  [`cat <<EOF\n$(${P})\nEOF`, 'mode'],
  [`cat <<EOF\nhi $(${P})\nEOF`, 'mode'],
  [`cat <<'EOF'\n\`${P}\` $(${P}) \${x@P}\nEOF`, 'allow'],
  [`cat <<"EOF"\n\`${P}\`\nEOF`, 'allow'],
  [`cat <<\\EOF\n\`${P}\`\nEOF`, 'allow'],
  ['cat <<EOF\nhello $USER, ${HOME}\nEOF', 'allow'],
  ['cat <<EOF\nprice: \\$5 and \\`quoted\\`\nEOF', 'allow'],
  // `builtin` and `command` before anything that runs code
  [`builtin eval '${P}'`, 'person'],
  [`command eval '${P}'`, 'person'],
  [`command -p eval '${P}'`, 'person'],
  [`command -- eval '${P}'`, 'person'],
  [`builtin builtin eval '${P}'`, 'person'],
  [`command builtin eval '${P}'`, 'person'],
  ['builtin source f', 'person'],
  ['builtin . f', 'person'],
  ['command source f', 'person'],
  ['command . ./f', 'person'],
  [`builtin trap '${P}' EXIT`, 'person'],
  [`command trap '${P}' EXIT`, 'person'],
  ['command exec bash f', 'person'],
  ['builtin exec bash f', 'person'],
  [`builtin alias ls='${P}'; ls`, 'person'],
  [`command alias ls='${P}'`, 'person'],
  ['builtin fc -e vi', 'person'],
  [`builtin bind -x '"a": ${P}'`, 'person'],
  [`compgen -W '$(${P})' x`, 'person'],
  [`builtin compgen -C '${P}' x`, 'person'],
  [`complete -C '${P}' ls`, 'person'],
  ["builtin eval 'echo > .git/config'", 'person'],
  [`eval '${P}'`, 'person'],
  ['source ./f', 'person'],
  ['command -v ls', 'mode'],
  ['command -V echo', 'mode'],
  ['builtin echo hi', 'allow'],
  ['command echo hi', 'allow'],
  ['command ls -la', 'allow'],
  // mapfile and readarray call back code every few lines
  [`mapfile -C '${P} #' -c 1 x < notes`, 'person'],
  [`readarray -C '${P} #' x < notes`, 'person'],
  [`mapfile -tC '${P}' x < notes`, 'person'],
  [`mapfile -c1 -C'${P}' x < notes`, 'person'],
  [`builtin mapfile -C '${P}' x < notes`, 'person'],
  [`command readarray -C '${P}' x < notes`, 'person'],
  ['mapfile $opts x < notes', 'person'],
  ['mapfile -t lines < notes', 'mode'],
  ['readarray -t -n 3 lines < notes', 'mode'],
  // wrappers are judged as the command they run
  ['nohup bash f', 'person'],
  ['timeout 5 bash f', 'person'],
  ['env bash -c "$(cat f)"', 'person'],
  ['nice bash f', 'person'],
  ['nice -n 5 bash f', 'person'],
  ['stdbuf -oL bash f', 'person'],
  ['setsid bash f', 'person'],
  ['setsid -w bash f', 'person'],
  ['time bash f', 'person'],
  ['time -p bash f', 'person'],
  ['exec bash f', 'person'],
  ['sudo bash f', 'person'],
  ['sudo -u root bash f', 'person'],
  ['doas bash f', 'person'],
  ['xargs bash', 'person'],
  ['xargs -0 sh', 'person'],
  ["xargs -I{} sh -c 'echo {}'", 'person'],
  ["xargs -I % bash -c 'ls %'", 'person'],
  ['xargs -n1 bash f', 'person'],
  ['nohup eval x', 'person'],
  ['timeout 5 eval x', 'person'],
  ['nice nohup timeout 3 bash f', 'person'],
  ['env -i nohup stdbuf -o0 bash f', 'person'],
  ['/usr/bin/env bash -c "$x"', 'person'],
  ['/usr/bin/nohup bash f', 'person'],
  ["env -S 'bash -c x'", 'person'],
  ['env -C /tmp ls', 'person'],
  ['env -- bash f', 'person'],
  ['timeout --bogus 5 ls', 'person'],
  ['nice -n $N ls', 'person'],
  ['stdbuf --input=$x ls', 'person'],
  ['sudo -s ls', 'person'],
  ['sudo -i ls', 'person'],
  ['nohup $CMD', 'person'],
  ['timeout 5 "$CMD" x', 'person'],
  ['xargs $CMD', 'person'],
  ['busybox sh f', 'person'],
  [`busybox sh -c '${P}'`, 'mode'],
  ['busybox ls', 'allow'],
  ['zsh -c ls', 'person'],
  ['ksh -c ls', 'person'],
  ['fish -c ls', 'person'],
  ['tcsh -c ls', 'person'],
  ["bash f -c 'ls'", 'person'],
  ["bash -- f -c 'ls'", 'person'],
  ["bash -o posix -c 'ls'", 'allow'],
  ["bash -c -x 'ls'", 'allow'],
  ["bash -ec 'ls; echo hi'", 'allow'],
  ["timeout 5 bash -c 'ls'", 'allow'],
  ["nohup sh -c 'ls | grep x'", 'allow'],
  ["env LANG=C bash -c 'echo hi'", 'allow'],
  [`timeout 5 bash -c '${P}'`, 'mode'],
  ["sudo bash -c 'ls'", 'mode'],
  ['sudo ls', 'mode'],
  ['/tmp/env ls', 'mode'],
  ['nohup ls', 'allow'],
  ['timeout 5 ls', 'allow'],
  ['nice -n 10 ls', 'allow'],
  ['nice -5 ls', 'allow'],
  ['stdbuf -oL -eL grep x notes', 'allow'],
  ['setsid ls', 'allow'],
  ['time -p ls', 'allow'],
  ['env LANG=C ls', 'allow'],
  ['ls | xargs grep x', 'allow'],
  ['ls | xargs -0 -n 2 -P 4 grep x', 'allow'],
  ['ls | xargs -I{} echo {}', 'allow'],
  ['ls | xargs', 'mode'],
  // what the parser drops or does not know asks too
  ['cat - <<EOF\nx\nEOF', 'person'],
  ['echo $"hello"', 'person'],
  ['coproc ls', 'person'],
  ['echo @(a|b)', 'person'],
  ['echo "$[1 + x]"', 'person'],
  // the rest of a line is judged as before
  ['ls -la && echo done', 'allow'],
  ['echo "$(ls)" | wc -l', 'allow'],
  ['for f in a b; do echo "$f"; done', 'allow'],
  ['cat notes | grep -c x', 'allow'],
  ['git status && ls', 'allow'],
  [`ls; ${P}`, 'mode'],
  [`echo $(${P})`, 'mode']
]

describe('bash the judge does not model asks a person', () => {
  it.each(hiddenCommandTable)('%j → %s', async (line, expected) => {
    const { verdict, reason } = await judged(line, rules, workspace)
    expect(verdict, reason).toBe(expected)
    if (expected === 'person') expect(reason).not.toBe('')
  })

  it('names the construct it could not judge', async () => {
    const reason = async (line: string): Promise<string> =>
      (await judged(line, rules, workspace)).reason
    expect(await reason(`x='$(${P})'; echo \${x@P}`)).toMatch(/`@P`/)
    expect(await reason(`echo \${x#$(${P})}`)).toMatch(/substitution the parser did not read/)
    expect(await reason(`echo \`echo \\\`${P}\\\`\``)).toMatch(/inside backticks/)
    expect(await reason(`cat <<EOF\n\`${P}\`\nEOF`)).toMatch(/here-document/)
    expect(await reason('BASH_CMDS=([ls]=/usr/bin/bash); ls x')).toMatch(/BASH_CMDS/)
    expect(await reason(`builtin eval '${P}'`)).toMatch(/`eval` runs code/)
    expect(await reason(`mapfile -C '${P}' x`)).toMatch(/`mapfile -C`/)
    expect(await reason('nohup bash f')).toMatch(/script file/)
  })
})
