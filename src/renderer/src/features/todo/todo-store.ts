import { createReducerStore } from '../../lib/reducer-store'
import { initialTodoState, todoReducer } from './todo-reducer'

/** The model's plan per session, from `todo.updated` events and `session.get` snapshots. */
export const useTodos = createReducerStore(todoReducer, initialTodoState)
