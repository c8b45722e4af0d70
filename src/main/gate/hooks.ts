import { spawn } from 'node:child_process'
import type { Capabilities } from '../../shared/domain'

/** A command that sees each pending call and may refuse it. */
export interface HookConfig {
  command: string
  args: string[]
  /** Tool names it is asked about; all tools when empty. */
  tools: string[]
  timeout_ms: number
}

export interface HookCall {
  sessionId: string
  workspace: string
  tool: string
  input: unknown
  capabilities: Capabilities
}

const MAX_OUTPUT = 64 * 1024

/**
 * Runs the hooks in order on a pending call, which each receives as JSON on stdin. A hook passes
 * the call by exiting 0 (and not printing `{"decision":"refuse"}`); anything else refuses it:
 * another exit code, a crash, or running past its timeout. Hooks can only narrow: passing never
 * approves what the rules or the mode refuse. Returns the first refusal's reason, or null.
 */
export async function runHooks(
  hooks: readonly HookConfig[],
  call: HookCall
): Promise<string | null> {
  for (const hook of hooks) {
    if (hook.tools.length > 0 && !hook.tools.includes(call.tool)) continue
    const refusal = await runHook(hook, call)
    if (refusal) return refusal
  }
  return null
}

function runHook(hook: HookConfig, call: HookCall): Promise<string | null> {
  const name = [hook.command, ...hook.args].join(' ')
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    let settled = false
    const finish = (value: string | null): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(value)
    }
    const child = spawn(hook.command, hook.args, {
      cwd: call.workspace,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish(
        `the hook \`${name}\` did not answer within ${hook.timeout_ms} ms, so the call is refused`
      )
    }, hook.timeout_ms)
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk.toString()
    })
    child.on('error', (error) =>
      finish(`the hook \`${name}\` could not run (${error.message}), so the call is refused`)
    )
    child.on('close', (code) => {
      const said = parseAnswer(stdout)
      if (code === 0 && said?.decision !== 'refuse' && said?.decision !== 'deny')
        return finish(null)
      const reason = said?.reason ?? (stderr.trim() || `it exited with code ${code}`)
      finish(`the hook \`${name}\` refused the call: ${reason}`)
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(JSON.stringify(call))
  })
}

function parseAnswer(stdout: string): { decision?: string; reason?: string } | null {
  const text = stdout.trim()
  if (!text.startsWith('{')) return null
  try {
    const value = JSON.parse(text) as { decision?: unknown; reason?: unknown }
    return {
      decision: typeof value.decision === 'string' ? value.decision : undefined,
      reason: typeof value.reason === 'string' ? value.reason : undefined
    }
  } catch {
    return null
  }
}
