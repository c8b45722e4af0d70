import type { JSX, ReactNode } from 'react'
import type { TodoItem } from '../../../../shared/domain'
import { CheckIcon, ChecklistIcon, ChevronIcon } from '../../lib/icons'
import { planProgress } from './todo-reducer'
import { useTodos } from './todo-store'
import './todo.css'

const NO_ITEMS: TodoItem[] = []

const statusLabels: Record<TodoItem['status'], string> = {
  done: 'Done',
  in_progress: 'In progress',
  pending: 'Pending'
}

function StatusMark({ status }: { status: TodoItem['status'] }): JSX.Element {
  return (
    <span className={`todo-mark todo-mark--${status}`} role="img" aria-label={statusLabels[status]}>
      {status === 'done' && <CheckIcon size={11} />}
    </span>
  )
}

const toggle = (): void => useTodos.getState().dispatch({ type: 'toggle' })

/** Folds the plan to its rail (from the panel's header) and opens it again (from the rail). */
function PlanToggle({
  expanded,
  children
}: {
  expanded: boolean
  children: ReactNode
}): JSX.Element {
  return (
    <button
      type="button"
      className={expanded ? 'side-panel__button' : 'todo-rail__button'}
      onClick={toggle}
      aria-expanded={expanded}
      title={expanded ? 'Hide the plan' : 'Show the plan'}
      data-testid="todo-toggle"
    >
      {children}
    </button>
  )
}

/**
 * The model's plan for the selected session, as a checklist beside the chat. Hidden until the
 * model makes a plan; folds to a narrow rail that still shows the progress.
 */
export function TodoPanel({ sessionId }: { sessionId: string | null }): JSX.Element | null {
  const items = useTodos((s) => (sessionId ? s.state.bySession[sessionId] : undefined) ?? NO_ITEMS)
  const collapsed = useTodos((s) => s.state.collapsed)
  if (items.length === 0) return null
  const { done, total } = planProgress(items)

  if (collapsed) {
    return (
      <aside className="todo-rail" aria-label="Plan" data-testid="todo-panel">
        <PlanToggle expanded={false}>
          <ChecklistIcon size={16} />
          <span className="todo-rail__count">
            {done}/{total}
          </span>
        </PlanToggle>
      </aside>
    )
  }

  return (
    <aside className="side-panel todo-panel" aria-label="Plan" data-testid="todo-panel">
      <header className="side-panel__header">
        <ChecklistIcon size={15} className="side-panel__icon" />
        <h2 className="side-panel__title">Plan</h2>
        <span className="side-panel__count" data-testid="todo-progress">
          {done} of {total} done
        </span>
        <PlanToggle expanded={true}>
          <ChevronIcon size={14} />
        </PlanToggle>
      </header>
      <div
        className="todo-panel__bar"
        role="progressbar"
        aria-label="Plan progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <span style={{ width: `${(done / total) * 100}%` }} />
      </div>
      <ol className="todo-list">
        {items.map((item, i) => (
          <li
            key={i}
            className={`todo-item todo-item--${item.status}`}
            data-testid="todo-item"
            data-status={item.status}
          >
            <StatusMark status={item.status} />
            <span className="todo-item__text">{item.text}</span>
          </li>
        ))}
      </ol>
    </aside>
  )
}
