/**
 * The names of every call and event, without their schemas: the preload imports only this,
 * so it stays tiny. `contract.ts` is typed so that the two can never disagree.
 */
export const callNames = [
  'app.info',
  'workspace.recent',
  'workspace.open',
  'workspace.pickFolder',
  'session.list',
  'session.create',
  'session.get',
  'session.send',
  'session.cancel',
  'session.setModel',
  'approval.respond',
  'settings.get',
  'settings.save',
  'provider.test',
  'provider.models',
  'secrets.store',
  'tools.list'
] as const
export type CallName = (typeof callNames)[number]

export const eventNames = [
  'session.updated',
  'transcript.item',
  'message.delta',
  'approval.requested',
  'approval.resolved',
  'turn.started',
  'turn.completed',
  'turn.failed'
] as const
export type EventName = (typeof eventNames)[number]

export function isCallName(value: unknown): value is CallName {
  return typeof value === 'string' && (callNames as readonly string[]).includes(value)
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (eventNames as readonly string[]).includes(value)
}
