import type { Capabilities } from '../../../../shared/domain'
import type { ApprovalRequest, ChangeKind } from '../../../../shared/approvals'

// The sentence, the diff and what a call changes come from main, as each tool declares them
// (ApprovalRequest.sentence, .preview, .changes): the window keeps no table of tool names.

/**
 * What a call changes, said as truly as its tool declares it: a memory note is not a file, and a
 * tool that says no more (an MCP tool) is only said to be able to change something.
 */
export function effectBadge(changes: ChangeKind, readOnly: boolean): CapabilityBadge {
  if (readOnly) return { label: 'Read-only', tone: 'safe', title: 'Changes nothing' }
  switch (changes) {
    case 'files':
      return {
        label: 'Changes files',
        tone: 'warn',
        title: 'Creates, changes or deletes files in the project'
      }
    case 'memory':
      return { label: 'Changes memory', tone: 'warn', title: 'Changes a memory note; no file' }
    case 'commands':
      return {
        label: 'Runs commands',
        tone: 'warn',
        title: 'Runs programs in the project folder, which can change files'
      }
    default:
      return {
        label: 'Can change things',
        tone: 'warn',
        title: 'Not read-only: it can change something outside this conversation'
      }
  }
}

export interface CapabilityBadge {
  label: string
  tone: 'neutral' | 'info' | 'warn' | 'danger' | 'safe'
  title: string
}

/** The capabilities as badges, led by what the call changes; the riskier ones in warmer colours. */
export function capabilityBadges(
  readOnly: boolean,
  caps: Capabilities,
  changes: ChangeKind = 'other'
): CapabilityBadge[] {
  const badges: CapabilityBadge[] = [effectBadge(changes, readOnly)]
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
