import type { TodoItem } from '../../../../shared/domain'

export interface TodoState {
  /** Each session's plan as last reported; a session without one has no entry. */
  bySession: Record<string, TodoItem[]>
  /** Whether the person folded the panel away; kept across sessions. */
  collapsed: boolean
}

export type TodoAction =
  { type: 'updated'; sessionId: string; items: TodoItem[] } | { type: 'toggle' }

export const initialTodoState: TodoState = { bySession: {}, collapsed: false }

export function todoReducer(state: TodoState, action: TodoAction): TodoState {
  switch (action.type) {
    case 'updated':
      return { ...state, bySession: { ...state.bySession, [action.sessionId]: action.items } }
    case 'toggle':
      return { ...state, collapsed: !state.collapsed }
  }
}

/** How far a plan is, for the panel's header. */
export interface PlanProgress {
  done: number
  total: number
  /** The step being worked on, if the model marked one. */
  current: TodoItem | null
}

export function planProgress(items: readonly TodoItem[]): PlanProgress {
  return {
    done: items.filter((item) => item.status === 'done').length,
    total: items.length,
    current: items.find((item) => item.status === 'in_progress') ?? null
  }
}
