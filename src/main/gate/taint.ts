import type { Capabilities } from '../../shared/domain'

/** What has entered a conversation: it only ever grows. */
export interface Taint {
  privateData: boolean
  untrustedInput: boolean
}

export const cleanTaint: Taint = { privateData: false, untrustedInput: false }

/** The taint after a tool with these capabilities returned content to the model. */
export function widen(taint: Taint, capabilities: Capabilities): Taint {
  return {
    privateData: taint.privateData || capabilities.privateData,
    untrustedInput: taint.untrustedInput || capabilities.untrustedInput
  }
}

/** Private data and untrusted input together: someone else's words could aim a send. */
export function isArmed(taint: Taint): boolean {
  return taint.privateData && taint.untrustedInput
}

/**
 * The interlock: once the conversation holds private data and untrusted input, no tool the model
 * can aim at a destination (chosen egress) may run; with `blockSendsAfterPrivate`, no send at all
 * once private data is present. Nothing (mode, rule, person) can override it.
 */
export function interlock(
  taint: Taint,
  tool: { name: string; capabilities: Capabilities },
  blockSendsAfterPrivate: boolean
): string | null {
  const egress = tool.capabilities.egress
  if (egress === 'chosen' && isArmed(taint)) {
    return `${tool.name} can send data to a destination the model chooses, and this conversation now holds both private data and untrusted input (which could be steering it), so sends are refused for the rest of this session. Finish with local tools, or ask the person to start a new session for the send.`
  }
  if (egress !== 'none' && blockSendsAfterPrivate && taint.privateData) {
    return `${tool.name} sends data off this machine, and this conversation holds private data; the setting block_sends_after_private refuses such sends. Continue with local tools.`
  }
  return null
}
