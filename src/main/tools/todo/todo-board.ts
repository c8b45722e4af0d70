import type { TodoItem } from '../../../shared/domain'

/**
 * A session's plan: the list the model rewrites with the Todo tool. Every change is reported
 * (the window shows the list beside the chat), and later tool results echo it to the model.
 */
export class TodoBoard {
  private current: TodoItem[] = []

  constructor(private readonly changed: (items: TodoItem[]) => void = () => undefined) {}

  items(): TodoItem[] {
    return this.current.map((item) => ({ ...item }))
  }

  replace(items: readonly TodoItem[]): void {
    this.current = items.map((item) => ({ ...item }))
    this.changed(this.items())
  }
}

const marks: Record<TodoItem['status'], string> = {
  done: '[x]',
  in_progress: '[>]',
  pending: '[ ]'
}

/** The list one item a line, `[x]` done, `[>]` in progress, `[ ]` pending. */
export function planLines(items: readonly TodoItem[]): string {
  return items.map((item) => `${marks[item.status]} ${item.text}`).join('\n')
}

/** How far the plan is: `2 of 5 done`. */
export function planProgress(items: readonly TodoItem[]): string {
  return `${items.filter((item) => item.status === 'done').length} of ${items.length} done`
}

/**
 * The reminder appended to every tool result once there is a plan, so it stays in view however
 * long the conversation grows; empty when there is none.
 */
export function planEcho(items: readonly TodoItem[]): string {
  if (items.length === 0) return ''
  return `[Your plan (${planProgress(items)}); rewrite it with Todo as you go:\n${planLines(items)}]`
}
