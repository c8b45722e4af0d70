import type { Capabilities, SessionSummary } from '../../../../shared/domain'

export type TaintLevel = 'clean' | 'private' | 'untrusted' | 'locked'

/** What the chat header says about what has entered the conversation. */
export interface TaintView {
  level: TaintLevel
  /** A few words for the badge. */
  label: string
  /** The full story, for the tooltip and the popover. */
  detail: string
  /** Whether sends are now refused (the interlock, or `block_sends_after_private`). */
  sendsRefused: boolean
}

const UNTRUSTED_FOLDER =
  'You do not trust the authors of this folder, so what is read from it (and its AGENTS.md, skills and commands) counts as untrusted input that could try to steer the model.'

/**
 * The session's taint in words. `blockSendsAfterPrivate` is the setting that refuses every send
 * once private data is present, even without untrusted input; `untrustedFolder` says the
 * session was made in a folder whose authors the person does not trust.
 */
export function describeTaint(
  taint: SessionSummary['taint'],
  blockSendsAfterPrivate = false,
  untrustedFolder = false
): TaintView {
  const privateData = taint?.privateData ?? false
  const untrusted = taint?.untrustedInput ?? false
  if (untrustedFolder) return describeUntrustedFolder(privateData)
  if (privateData && untrusted) {
    return {
      level: 'locked',
      label: 'Private + untrusted · sends refused',
      detail:
        'This conversation holds private data and untrusted input, and that input could be steering the model. So that nobody else can aim your data somewhere, every tool that sends to a destination the model chooses is refused for the rest of this session (the interlock). Local tools still run; start a new session for a send.',
      sendsRefused: true
    }
  }
  if (privateData) {
    return blockSendsAfterPrivate
      ? {
          level: 'private',
          label: 'Private data · sends refused',
          detail:
            'Private data (such as your files) has entered this conversation, and the setting block_sends_after_private refuses every tool that sends data off this machine for the rest of this session. Local tools still run.',
          sendsRefused: true
        }
      : {
          level: 'private',
          label: 'Private data',
          detail:
            'Private data (such as your files) has entered this conversation. Sends still run as your approval mode allows, because no untrusted input has come in that could steer them. If some does, sends the model can aim are refused.',
          sendsRefused: false
        }
  }
  if (untrusted) {
    return {
      level: 'untrusted',
      label: 'Untrusted input',
      detail:
        'Content from outside this machine (a web page, an MCP tool) has entered this conversation and could try to steer the model. Nothing private has come in yet; once something does, sends the model can aim are refused.',
      sendsRefused: false
    }
  }
  return {
    level: 'clean',
    label: 'Nothing private or untrusted',
    detail:
      'No private data and no untrusted input have entered this conversation yet. Once both have, tools that send data to a destination the model chooses are refused.',
    sendsRefused: false
  }
}

function describeUntrustedFolder(privateData: boolean): TaintView {
  const change = 'Trusting the folder (from its name in the sidebar) applies from the next session.'
  if (privateData) {
    return {
      level: 'locked',
      label: 'Untrusted folder · sends refused',
      detail: `${UNTRUSTED_FOLDER} Private data has come in too, so every tool that sends to a destination the model chooses is refused for the rest of this session (the interlock). Local tools and a confined Shell with no network still run. ${change}`,
      sendsRefused: true
    }
  }
  return {
    level: 'untrusted',
    label: 'Untrusted folder',
    detail: `${UNTRUSTED_FOLDER} Once private data comes in too (the first file read brings it), sends the model can aim are refused for the rest of this session. ${change}`,
    sendsRefused: false
  }
}

/** Which part of the gate stopped a call, in words; the gate names itself with short ids. */
export function refusalLabel(refusedBy: string | null): string {
  switch (refusedBy) {
    case 'interlock':
      return 'Refused by the interlock'
    case 'rule':
      return 'Refused by a permission rule'
    case 'hook':
      return 'Refused by a hook'
    case 'mode':
      return 'Refused by read-only mode'
    case 'planning':
      return 'Refused by planning mode'
    case 'approver':
      return 'Denied by you'
    case 'cancel':
      return 'Stopped'
    case null:
      return 'Not run'
    default:
      return `Refused by ${refusedBy}`
  }
}

/** The short state of a call the gate stopped: the person denies, the gate refuses. */
export function deniedBadge(refusedBy: string | null): string {
  if (refusedBy === 'cancel') return 'Stopped'
  if (refusedBy === 'approver' || refusedBy === null) return 'Denied'
  return 'Refused'
}

export interface CapabilityChip {
  label: string
  tone: 'safe' | 'info' | 'warn' | 'danger'
  title: string
}

/** A tool's capabilities as the small badges of its card: only what matters, riskiest warmest. */
export function capabilityChips(readOnly: boolean, caps: Capabilities | null): CapabilityChip[] {
  if (!caps) return []
  const chips: CapabilityChip[] = []
  if (readOnly) chips.push({ label: 'read-only', tone: 'safe', title: 'Changes nothing' })
  if (caps.privateData) {
    chips.push({ label: 'private', tone: 'info', title: 'Brings private data into the chat' })
  }
  if (caps.untrustedInput) {
    chips.push({
      label: 'untrusted',
      tone: 'warn',
      title: 'Brings in content from outside that could try to steer the model'
    })
  }
  if (caps.egress === 'chosen') {
    chips.push({
      label: 'egress: chosen',
      tone: 'danger',
      title: 'Can send data to a destination the model chooses'
    })
  } else if (caps.egress === 'blind') {
    chips.push({
      label: 'egress: blind',
      tone: 'warn',
      title: 'Can send data off this machine, to a place the model does not choose'
    })
  }
  if (caps.destructive) {
    chips.push({ label: 'destructive', tone: 'danger', title: 'Can delete or overwrite data' })
  }
  return chips
}
