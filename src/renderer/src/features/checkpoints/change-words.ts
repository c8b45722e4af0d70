import type { FileChange } from '../../../../shared/checkpoints'

const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/**
 * What a call did to the files, as a card says it: "changed 3 files, created 1, deleted 2".
 * The first count names its noun; `more` are changes beyond the ones listed.
 */
export function describeChanges(changes: readonly FileChange[], more = 0): string {
  if (changes.length === 0 && more === 0) return 'changed no files'
  const counts = { changed: 0, created: 0, deleted: 0 }
  for (const change of changes) counts[change.change]++
  const parts = (['changed', 'created', 'deleted'] as const)
    .filter((kind) => counts[kind] > 0)
    .map((kind, i) =>
      i === 0 ? `${kind} ${plural(counts[kind], 'file')}` : `${kind} ${counts[kind]}`
    )
  if (more > 0) parts.push(`and ${plural(more, 'more file')}`)
  return parts.join(', ')
}

/** What a restore did, from its changes (the checkpoint → the folder before it): "2 files put back, 1 removed". */
export function describeRestore(changes: readonly FileChange[]): string {
  if (changes.length === 0) return 'no files changed'
  const counts = new Map<string, number>()
  for (const change of changes) {
    const verb = restoreVerb(change.change)
    counts.set(verb, (counts.get(verb) ?? 0) + 1)
  }
  return [...counts]
    .map(([verb, n], i) => (i === 0 ? `${plural(n, 'file')} ${verb}` : `${n} ${verb}`))
    .join(', ')
}

/** What a restore does to one file, from the plan's change (the checkpoint → the folder now). */
export function restoreVerb(change: FileChange['change']): string {
  switch (change) {
    case 'created':
      return 'removed'
    case 'deleted':
      return 'brought back'
    case 'changed':
      return 'put back'
  }
}
