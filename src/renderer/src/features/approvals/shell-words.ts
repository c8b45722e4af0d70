import type { ApprovalShell } from '../../../../shared/approvals'

/** One thing the shell parser found in a command line, said in words with what it quotes. */
export interface ShellFinding {
  kind: 'runs' | 'writes' | 'reads' | 'substitutes' | 'concerns'
  summary: string
  /** As written in the line (commands, redirections, substitutions), or a concern's words. */
  items: string[]
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

/**
 * What a Shell line will do, from the permission rules' own parse: the commands in the order
 * they run (a substitution's before the command that uses it), the files it opens by
 * redirection, and why its words alone cannot be trusted. Empty parts are left out, except the
 * commands: "Runs no command" is itself worth knowing.
 */
export function shellFindings(shell: ApprovalShell): ShellFinding[] {
  const n = shell.commands.length
  const findings: ShellFinding[] = [
    {
      kind: 'runs',
      summary:
        n === 0
          ? 'Runs no command'
          : `Runs ${count(n, 'command', 'commands')}${n > 1 ? ', in this order' : ''}`,
      items: shell.commands
    }
  ]
  const writes = shell.redirections.filter((r) => r.access === 'write').map((r) => r.source)
  const reads = shell.redirections.filter((r) => r.access === 'read').map((r) => r.source)
  if (writes.length > 0) {
    findings.push({
      kind: 'writes',
      summary: `Writes to ${count(writes.length, 'file', 'files')} by redirection`,
      items: writes
    })
  }
  if (reads.length > 0) {
    findings.push({
      kind: 'reads',
      summary: `Reads ${count(reads.length, 'file', 'files')} by redirection`,
      items: reads
    })
  }
  if (shell.substitutions.length > 0) {
    findings.push({
      kind: 'substitutes',
      summary: `Runs ${count(shell.substitutions.length, 'substitution', 'substitutions')} first and puts ${shell.substitutions.length === 1 ? 'its' : 'their'} output into the line`,
      items: shell.substitutions
    })
  }
  if (shell.concerns.length > 0) {
    findings.push({
      kind: 'concerns',
      summary: 'Cannot be judged by its words alone',
      items: shell.concerns
    })
  }
  return findings
}

/**
 * Control, bidi and zero-width characters: the terminal and the bidi algorithm obey them, so a
 * command holding one can display as something other than what runs. Newline and tab stay.
 */
function hidden(code: number): boolean {
  if (code === 0x0a || code === 0x09) return false
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  )
}

/** A command as the dialog shows it: every hidden character named (`⟨U+202E⟩`), not obeyed. */
export function shownCommand(command: string): string {
  let shown = ''
  for (const c of command) {
    const code = c.codePointAt(0) ?? 0
    shown += hidden(code) ? `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩` : c
  }
  return shown
}
