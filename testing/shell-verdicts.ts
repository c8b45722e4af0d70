// The shell judge's verdicts in five words, for the attack tables: what a line gets from the
// rules, before the mode and the approver. Not shipped: only test files import it.
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { judgeShell, type PermissionRule } from '../src/main/gate/rules'

/**
 * `allow`: a rule lets it run unasked. `person`: it needs a person in every mode, and no rule
 * can allow it. `ask`: a rule says to ask. `mode`: no rule covers it (an ordinary write by
 * redirection among them), so the mode decides. `forbid`: a rule forbids it.
 */
export type Verdict = 'allow' | 'person' | 'ask' | 'mode' | 'forbid'

export interface Judged {
  verdict: Verdict
  reason: string
}

/** Allow rules for Shell, one per command prefix. */
export function allowing(...commands: string[]): PermissionRule[] {
  return commands.map((command) => ({ tool: 'Shell', command, decision: 'allow' }))
}

/** The verdict of the judge on `line`, with `workspace` as the project folder. */
export async function judged(
  line: string,
  rules: readonly PermissionRule[],
  workspace: string
): Promise<Judged> {
  const verdict = await judgeShell(line, rules, 'Shell', { workspace })
  const word: Verdict =
    verdict.decision === 'allow'
      ? 'allow'
      : verdict.decision === 'forbid'
        ? 'forbid'
        : verdict.decision === 'prompt'
          ? verdict.concern
            ? 'person'
            : 'ask'
          : 'mode'
  return { verdict: word, reason: verdict.reason }
}

/** A project folder with a `.git` folder in it, as the judge's redirections need one. */
export async function gitWorkspace(prefix: string): Promise<string> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)))
  await mkdir(path.join(root, '.git', 'hooks'), { recursive: true })
  await writeFile(path.join(root, '.git', 'config'), '[core]\n')
  return root
}
