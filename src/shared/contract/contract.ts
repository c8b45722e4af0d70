import type { z } from 'zod'
import * as app from './app'
import * as chat from './chat'
import * as checkpoints from './checkpoints'
import * as files from './files'
import * as jobs from './jobs'
import * as mcp from './mcp'
import * as memory from './memory'
import * as permissions from './permissions'
import * as providers from './providers'
import * as questions from './questions'
import * as sandbox from './sandbox'
import * as sessions from './sessions'
import * as settings from './settings'
import * as skills from './skills'
import * as tools from './tools'
import * as websearch from './websearch'
import * as workspace from './workspace'

/**
 * The contract, one slice per feature: `<feature>.ts` here declares its calls and events, and
 * `src/main/api/<feature>.ts` answers its calls. A new call is its slice entry, its handler
 * there, and its use in the renderer; the names below follow from the slices.
 */
export const slices = {
  app,
  workspace,
  sessions,
  chat,
  permissions,
  settings,
  providers,
  tools,
  sandbox,
  mcp,
  files,
  jobs,
  memory,
  websearch,
  skills,
  checkpoints,
  questions
}
export type SliceName = keyof typeof slices

/** Every call the renderer (or the CLI) can make: name → {input, output}. */
export const calls = {
  ...app.calls,
  ...workspace.calls,
  ...sessions.calls,
  ...chat.calls,
  ...permissions.calls,
  ...settings.calls,
  ...providers.calls,
  ...tools.calls,
  ...sandbox.calls,
  ...mcp.calls,
  ...files.calls,
  ...jobs.calls,
  ...memory.calls,
  ...websearch.calls,
  ...skills.calls,
  ...checkpoints.calls,
  ...questions.calls
}

/** Every event the main process sends: name → payload. */
export const events = {
  ...app.events,
  ...workspace.events,
  ...sessions.events,
  ...chat.events,
  ...permissions.events,
  ...settings.events,
  ...providers.events,
  ...tools.events,
  ...sandbox.events,
  ...mcp.events,
  ...files.events,
  ...jobs.events,
  ...memory.events,
  ...websearch.events,
  ...skills.events,
  ...checkpoints.events,
  ...questions.events
}

export type CallName = keyof typeof calls
export type EventName = keyof typeof events

export const callNames = Object.keys(calls) as CallName[]
export const eventNames = Object.keys(events) as EventName[]

export function isCallName(value: unknown): value is CallName {
  return typeof value === 'string' && Object.hasOwn(calls, value)
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(events, value)
}

export type CallInput<N extends CallName> = z.input<(typeof calls)[N]['input']>
export type CallOutput<N extends CallName> = z.infer<(typeof calls)[N]['output']>
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>

/** An event as it crosses a transport, and as `run --json` prints it (with `type`). */
export type AnyEvent = { [N in EventName]: { event: N; payload: EventPayload<N> } }[EventName]
