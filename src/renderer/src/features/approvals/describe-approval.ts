import type { Capabilities } from '../../../../shared/domain'
import type { ApprovalRequest } from '../../../../shared/approvals'
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
    case 'Remove':
      return `Delete ${where}.`
    case 'Move':
    case 'Copy': {
      const source = field(request.input, 'source') ?? 'a file'
      const destination = field(request.input, 'destination') ?? 'another place'
      return `${request.tool} ${source} to ${destination}.`
    }
    case 'SkillDraft': {
      const name = field(request.input, 'name') ?? 'a skill'
      return `Save a skill draft "${name}" in .mecatl/skill-drafts/ of the project. It is not a skill until you activate it in Settings → Skills.`
    }
    default:
      return (
        memorySentence(request.tool, field(request.input, 'name')) ??
        `Run the tool ${request.tool} with the arguments below.`
      )
  }
}

/** The memory tools and the store each writes to: notes in SQLite, never the project's files. */
const MEMORY_TOOLS: Record<
  string,
  { verb: 'save' | 'forget' | 'undo'; scope: 'project' | 'user' }
> = {
  Remember: { verb: 'save', scope: 'project' },
  ForgetMemory: { verb: 'forget', scope: 'project' },
  UndoMemory: { verb: 'undo', scope: 'project' },
  RememberUser: { verb: 'save', scope: 'user' },
  ForgetUserMemory: { verb: 'forget', scope: 'user' },
  UndoUserMemory: { verb: 'undo', scope: 'user' }
}

function memorySentence(tool: string, name: string | null): string | null {
  const memory = MEMORY_TOOLS[tool]
  if (!memory) return null
  const note = `the note "${name ?? 'unnamed'}"`
  const store = memory.scope === 'project' ? 'the project memory' : 'your user model'
  switch (memory.verb) {
    case 'save': {
      const readers =
        memory.scope === 'project'
          ? 'which later sessions in this folder read'
          : 'which sessions in every project read'
      return `Save ${note} in ${store}, ${readers}. No file changes.`
    }
    case 'forget':
      return `Forget ${note} in ${store}: later sessions no longer see it (its history keeps it). No file changes.`
    case 'undo':
      return `Put back the previous version of ${note} in ${store}. No file changes.`
  }
}

/** Tools that create, change or delete files in the project folder. */
const FILE_TOOLS = new Set(['Write', 'Edit', 'Remove', 'Move', 'Copy', 'SkillDraft'])

/**
 * What a call changes, said as truly as its name allows: a memory note is not a file, and a tool
 * the window knows nothing about (an MCP tool) is only said to be able to change something.
 */
export function effectBadge(tool: string, readOnly: boolean): CapabilityBadge {
  if (readOnly) return { label: 'Read-only', tone: 'safe', title: 'Changes nothing' }
  if (FILE_TOOLS.has(tool)) {
    return {
      label: 'Changes files',
      tone: 'warn',
      title: 'Creates, changes or deletes files in the project'
    }
  }
  if (MEMORY_TOOLS[tool]) {
    return { label: 'Changes memory', tone: 'warn', title: 'Changes a memory note; no file' }
  }
  if (tool === 'Shell' || tool === 'ShellSystemTemp') {
    return {
      label: 'Runs commands',
      tone: 'warn',
      title: 'Runs programs in the project folder, which can change files'
    }
  }
  return {
    label: 'Can change things',
    tone: 'warn',
    title: 'Not read-only: it can change something outside this conversation'
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
  tool = ''
): CapabilityBadge[] {
  const badges: CapabilityBadge[] = [effectBadge(tool, readOnly)]
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

/** The change a Write or an Edit proposes, for the same numbered diff view the card shows. */
export interface ApprovalPreview {
  kind: 'diff'
  path: string
  /** Edit: the text replaced. Write: empty, so every line reads as added, numbered from 1. */
  before: string
  after: string
}

/**
 * Write's content and Edit's before and after, as a diff. An Edit's line numbers count from the
 * first line of the replaced text: the window has the call, not the file.
 */
export function approvalPreview(
  request: Pick<ApprovalRequest, 'tool' | 'input'>
): ApprovalPreview | null {
  const path = field(request.input, 'path') ?? '(no path)'
  const input = request.input as Record<string, unknown> | null
  if (request.tool === 'Write' && typeof input?.content === 'string') {
    return { kind: 'diff', path, before: '', after: input.content }
  }
  if (request.tool === 'Edit' && typeof input?.old === 'string' && typeof input.new === 'string') {
    return { kind: 'diff', path, before: input.old, after: input.new }
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
