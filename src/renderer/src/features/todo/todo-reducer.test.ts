import { describe, expect, it } from 'vitest'
import type { TodoItem } from '../../../../shared/domain'
import { initialTodoState, planProgress, todoReducer } from './todo-reducer'

const plan: TodoItem[] = [
  { text: 'Read the config', status: 'done' },
  { text: 'Add the setting', status: 'in_progress' },
  { text: 'Test it', status: 'pending' }
]

describe('todoReducer', () => {
  it('keeps the latest plan of each session apart', () => {
    let state = todoReducer(initialTodoState, { type: 'updated', sessionId: 'a', items: plan })
    state = todoReducer(state, { type: 'updated', sessionId: 'b', items: plan.slice(0, 1) })
    state = todoReducer(state, { type: 'updated', sessionId: 'a', items: plan.slice(1) })
    expect(state.bySession).toEqual({ a: plan.slice(1), b: plan.slice(0, 1) })
  })

  it('remembers a cleared plan as empty, so the panel hides', () => {
    let state = todoReducer(initialTodoState, { type: 'updated', sessionId: 'a', items: plan })
    state = todoReducer(state, { type: 'updated', sessionId: 'a', items: [] })
    expect(state.bySession.a).toEqual([])
  })

  it('folds and unfolds the panel', () => {
    const folded = todoReducer(initialTodoState, { type: 'toggle' })
    expect(folded.collapsed).toBe(true)
    expect(todoReducer(folded, { type: 'toggle' }).collapsed).toBe(false)
  })
})

describe('planProgress', () => {
  it('counts the done steps and names the one in progress', () => {
    expect(planProgress(plan)).toEqual({ done: 1, total: 3, current: plan[1] })
    expect(planProgress([])).toEqual({ done: 0, total: 0, current: null })
  })
})
