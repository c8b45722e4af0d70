/**
 * The names of every call and event, without their schemas: the preload imports only this,
 * so it stays tiny. `contract.ts` is typed so that the two can never disagree.
 */
export const callNames = [
  'app.info',
  'workspace.recent',
  'workspace.open',
  'workspace.setTrust',
  'workspace.pickFolder',
  'session.list',
  'session.create',
  'session.get',
  'session.send',
  'session.cancel',
  'session.setModel',
  'session.setPlanning',
  'session.rename',
  'session.delete',
  'session.search',
  'session.fork',
  'session.export',
  'parallel.take',
  'approval.respond',
  'settings.get',
  'settings.save',
  'settings.status',
  'provider.test',
  'provider.models',
  'secrets.store',
  'tools.list',
  'sandbox.status',
  'rules.list',
  'rules.add',
  'rules.remove',
  'rules.trustProject',
  'rules.preview',
  'mcp.status',
  'mcp.log',
  'mcp.restart',
  'mcp.trust',
  'mcp.prompt',
  'mcp.import',
  'spill.read',
  'jobs.list',
  'jobs.output',
  'jobs.unfollow',
  'jobs.ack',
  'jobs.cancel',
  'jobs.dismiss',
  'tool.stop',
  'memory.search',
  'memory.inspect',
  'memory.forget',
  'memory.undo',
  'websearch.test',
  'commands.list',
  'skills.list',
  'skillDrafts.list',
  'skillDrafts.activate',
  'skillDrafts.delete',
  'instructions.list',
  'question.answer',
  'checkpoints.status',
  'checkpoints.file',
  'checkpoints.plan',
  'checkpoints.restore'
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
  'turn.failed',
  'mcp.updated',
  'todo.updated',
  'job.updated',
  'job.output',
  'job.dismissed',
  'memory.changed',
  'settings.status',
  'question.asked',
  'question.resolved'
] as const
export type EventName = (typeof eventNames)[number]

export function isCallName(value: unknown): value is CallName {
  return typeof value === 'string' && (callNames as readonly string[]).includes(value)
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (eventNames as readonly string[]).includes(value)
}
