import type { TodoItem } from '../../../../shared/domain'
import { createReducerStore } from '../../lib/reducer-store'
import { initialTodoState, todoReducer } from './todo-reducer'

/** The model's plan per session, from `todo.updated` events and `session.get` snapshots. */
export const useTodos = createReducerStore(todoReducer, initialTodoState)

/** A session's plan as the model last reported it. */
export function setPlan(sessionId: string, items: TodoItem[]): void {
  useTodos.getState().dispatch({ type: 'updated', sessionId, items })
}

/** Folds the plan panel away, if it is open. */
export function foldPlan(): void {
  const { state, dispatch } = useTodos.getState()
  if (!state.collapsed) dispatch({ type: 'toggle' })
}

/** Whether the model has made a plan for the session. */
export function useHasPlan(sessionId: string | null): boolean {
  return useTodos((s) => (sessionId ? (s.state.bySession[sessionId]?.length ?? 0) : 0) > 0)
}

/** Whether the person folded the plan panel away (kept across sessions). */
export function usePlanFolded(): boolean {
  return useTodos((s) => s.state.collapsed)
}
