import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TodoItem } from '../../../shared/domain'
import { parseToolInput } from '../../agent/tool-input'
import {
  createTestWorkspace,
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'
import { TodoBoard, planEcho } from './todo-board'
import { todoTool } from './todo'

let ws: TestWorkspace
let changes: TodoItem[][]
let board: TodoBoard

beforeEach(async () => {
  ws = await createTestWorkspace()
  changes = []
  board = new TodoBoard((items) => changes.push(items))
})
afterEach(async () => {
  await ws.cleanup()
})

const run = (input: unknown): ReturnType<typeof todoTool.call> =>
  todoTool.call(todoTool.inputSchema.parse(input), { ...ws.ctx, todos: board })

describe('Todo', () => {
  it('replaces the plan whole, reports the change, and answers with the list', async () => {
    await run({ items: [{ text: 'one', status: 'pending' }] })
    const out = await run({
      items: [
        { text: ' Read the config ', status: 'done' },
        { text: 'Add the setting', status: 'in_progress' },
        { text: 'Test it', status: 'pending' }
      ]
    })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe(
      'Plan updated (1 of 3 done):\n[x] Read the config\n[>] Add the setting\n[ ] Test it'
    )
    expect(board.items().map((i) => i.text)).toEqual([
      'Read the config',
      'Add the setting',
      'Test it'
    ])
    expect(changes).toHaveLength(2)
    expect(changes[1]).toEqual(board.items())
  })

  it('clears the plan with an empty list, after which nothing is echoed', async () => {
    await run({ items: [{ text: 'one', status: 'pending' }] })
    expect(planEcho(board.items())).not.toBe('')
    expect(textOf(await run({ items: [] }))).toBe('Plan cleared.')
    expect(board.items()).toEqual([])
    expect(planEcho(board.items())).toBe('')
  })

  it('is a read-only tool with no capabilities, so it never waits for approval', () => {
    expect(todoTool.readOnly).toBe(true)
    expect(todoTool.capabilities).toEqual({
      privateData: false,
      untrustedInput: false,
      egress: 'none',
      destructive: false
    })
  })

  it('tells the model which field is wrong', () => {
    const parsed = parseToolInput(todoTool, { items: [{ text: '', status: 'started' }] })
    expect(parsed.ok).toBe(false)
    if (parsed.ok) return
    expect(parsed.message).toContain('`items.0.text`')
    expect(parsed.message).toContain('`items.0.status`')
  })

  it('refuses where there is no session to keep a plan in', async () => {
    const out = await todoTool.call({ items: [] }, ws.ctx)
    expect(out.isError).toBe(true)
    expect(textOf(out)).toBe(
      'there is no session here to keep a plan in (a single `call` from the command line); use Todo in a session'
    )
  })
})
