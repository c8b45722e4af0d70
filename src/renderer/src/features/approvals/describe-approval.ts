import type { ApprovalRequest, Capabilities } from '../../../../shared/domain'
import { inputString as field, lineCount } from '../../lib/tool-input'

/** One plain sentence saying what the tool will do, for a person deciding whether to allow it. */
export function describeApproval(request: Pick<ApprovalRequest, 'tool' | 'input'>): string {
  const path = field(request.input, 'path', 'file_path', 'file')
  const where = path ?? 'a file'
  switch (request.tool) {
    case 'Read':
      return `Read the file ${where}.`
    case 'ListDir':
      return `List what is in the folder ${path ?? 'at the top of the project'}.`
    case 'Write': {
      const content = field(request.input, 'content') ?? ''
      const lines = lineCount(content)
      return `Write ${lines} line${lines === 1 ? '' : 's'} to ${where}, creating it or replacing what is there.`
    }
    case 'Edit':
      return request.input && (request.input as Record<string, unknown>).replace_all === true
        ? `Edit ${where}, replacing every occurrence of the text shown below.`
        : `Edit ${where}, replacing the text shown below.`
    case 'Shell':
      return request.input && (request.input as Record<string, unknown>).background === true
        ? 'Start the command below in the project folder, in the background: it keeps running until it ends or is stopped.'
        : 'Run the command below in the project folder.'
    case 'ShellSystemTemp':
      return 'Give the command below the shared system temp directory instead of its own empty one: it can read and change what other programs keep there.'
    case 'SkillDraft': {
      const name = field(request.input, 'name') ?? 'a skill'
      return `Save a skill draft "${name}" in .mecatl/skill-drafts/ of the project. It is not a skill until you activate it in Settings → Skills.`
    }
    default:
      return `Run the tool ${request.tool} with the arguments below.`
  }
}

export interface CapabilityBadge {
  label: string
  tone: 'neutral' | 'info' | 'warn' | 'danger' | 'safe'
  title: string
}

/** The capabilities as badges; the riskier ones in warmer colours. */
export function capabilityBadges(readOnly: boolean, caps: Capabilities): CapabilityBadge[] {
  const badges: CapabilityBadge[] = [
    readOnly
      ? { label: 'Read-only', tone: 'safe', title: 'Does not change any file' }
      : { label: 'Changes files', tone: 'warn', title: 'Can create or modify files in the project' }
  ]
  if (caps.destructive) {
    badges.push({ label: 'Destructive', tone: 'danger', title: 'Can delete or overwrite data' })
  }
  if (caps.privateData) {
    badges.push({ label: 'Private data', tone: 'info', title: 'Can see your private data' })
  }
  if (caps.untrustedInput) {
    badges.push({
      label: 'Untrusted input',
      tone: 'warn',
      title: 'Brings in content that could try to steer the model'
    })
  }
  const egress = {
    none: { label: 'Egress: none', tone: 'neutral', title: 'Sends nothing off this machine' },
    blind: {
      label: 'Egress: blind',
      tone: 'warn',
      title: 'Can send data off this machine to a fixed place'
    },
    chosen: {
      label: 'Egress: chosen',
      tone: 'danger',
      title: 'Can send data to a destination the model chooses'
    }
  } as const
  badges.push(egress[caps.egress])
  return badges
}

export type ApprovalPreview =
  | { kind: 'write'; path: string | null; content: string }
  | { kind: 'edit'; path: string | null; old: string; new: string }

/** The part of the arguments worth reading as code: Write's content, Edit's before and after. */
export function approvalPreview(
  request: Pick<ApprovalRequest, 'tool' | 'input'>
): ApprovalPreview | null {
  const path = field(request.input, 'path')
  const input = request.input as Record<string, unknown> | null
  if (request.tool === 'Write' && typeof input?.content === 'string') {
    return { kind: 'write', path, content: input.content }
  }
  if (request.tool === 'Edit' && typeof input?.old === 'string' && typeof input.new === 'string') {
    return { kind: 'edit', path, old: input.old, new: input.new }
  }
  return null
}

/**
 * Whether the dialog may offer "Always allow…": not when the main process says no rule could
 * allow the call (a write into .git, a shell line that cannot be proven harmless), since a saved
 * rule would not cover the next such call and would only look as if it did.
 */
export function offersAlwaysAllow(request: Pick<ApprovalRequest, 'ruleCanAllow'>): boolean {
  return request.ruleCanAllow !== false
}

/** A piece of a reason: plain words, or a name or command that was quoted in backticks. */
export interface ReasonPart {
  text: string
  code: boolean
}

/**
 * A reason as the person reads it: the main process quotes paths and commands in backticks
 * (`` `.git/config` ``), which the dialog shows as code rather than as stray backticks. An
 * unmatched backtick stays as written.
 */
export function reasonParts(reason: string): ReasonPart[] {
  const pieces = reason.split('`')
  if (pieces.length % 2 === 0) return [{ text: reason, code: false }]
  return pieces.map((text, i) => ({ text, code: i % 2 === 1 })).filter((part) => part.text !== '')
}
