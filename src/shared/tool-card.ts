import type { GroupPhrase, ToolCard } from './domain'
import { keyArgument } from './tool-input'
import { displayToolName } from './tool-name'

/** "called Foo", "called Foo {n} times": how the calls of a tool that says no more fold. */
export function callsOf(name: string): GroupPhrase {
  const shown = displayToolName(name)
  return { one: `called ${shown}`, many: `called ${shown} {n} times` }
}

/**
 * The card of a call whose tool says nothing particular about it: its key argument, "called X"
 * when folded, its result as its display or its text. Also what the window shows for a call
 * recorded before cards came from the tools, and for a call that named no tool.
 */
export function plainCard(name: string, input: unknown): ToolCard {
  return { summary: keyArgument(input), grouped: callsOf(name), resultView: 'display' }
}

/** A group phrase said for `n` calls: "read 1 file", "read 3 files". */
export function groupedText(phrase: GroupPhrase, n: number): string {
  return n === 1 ? phrase.one : phrase.many.replaceAll('{n}', String(n))
}
