import type { GitChange } from '../../../../shared/domain'

/** Names shown in one group before the rest are counted ("and 4 more"). */
const SHOWN = 3

/**
 * The warning under a turn that changed git's own files, in one sentence: what changed, and what
 * to do before running git in that folder again, as git may now run what was put there.
 */
export function gitChangesLine(changes: readonly GitChange[]): string {
  const named = (change: GitChange['change']): string[] =>
    changes.filter((c) => c.change === change).map((c) => c.path)
  const groups = [
    ['changed', named('changed')],
    ['created', named('created')],
    ['removed', named('removed')]
  ] as const
  const said = groups.filter(([, paths]) => paths.length > 0)
  const parts = said.map(([verb, paths]) => `${verb} ${listed(paths)}`)
  const runs = said.some(([verb]) => verb !== 'removed')
  const advice = runs
    ? 'git may now run programs from them; look at them before you run git here.'
    : 'look before you run git here.'
  return `This turn ${listed(parts)}: ${advice}`
}

/** `a`, `a and b`, `a, b and c`, or the first few and how many more. */
function listed(items: readonly string[]): string {
  const shown =
    items.length > SHOWN + 1 ? [...items.slice(0, SHOWN), `${items.length - SHOWN} more`] : items
  if (shown.length <= 1) return shown.join('')
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`
}
