import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { JobManager, type JobManagerOptions } from '../src/main/jobs/job-manager'
import { PathJail } from '../src/main/workspace/path-jail'
import { ReadVersions } from '../src/main/workspace/read-versions'
import { outputText, type Tool, type ToolContext, type ToolOutput } from '../src/main/tools/tool'
import { shellTools } from '../src/main/tools/shell'

/** A project folder, a job manager with its own temp base, and the two shell tools over it. */
export interface ShellHarness {
  root: string
  /** Where the jobs' temp directories are made. */
  tempBase: string
  jobs: JobManager
  shell: Tool
  status: Tool
  /** Runs a tool as the dispatcher does (input parsed first), in session `s1` by default. */
  run(tool: Tool, input: unknown, options?: Partial<ToolContext>): Promise<ToolOutput>
  cleanup(): Promise<void>
}

export async function createShellHarness(
  options: Omit<JobManagerOptions, 'tempBase'> = {}
): Promise<ShellHarness> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-shell-')))
  const root = path.join(base, 'project')
  const tempBase = path.join(base, 'tmp')
  await mkdir(root)
  await mkdir(tempBase)
  const jobs = new JobManager({ ...options, tempBase })
  const [shell, status] = shellTools(jobs)
  if (!shell || !status) throw new Error('shellTools gave fewer than two tools')
  const jail = new PathJail(root)
  let calls = 0
  return {
    root,
    tempBase,
    jobs,
    shell,
    status,
    run: (tool, input, overrides = {}) => {
      const ctx: ToolContext = {
        sessionId: 's1',
        jail,
        reads: new ReadVersions(),
        signal: new AbortController().signal,
        callId: `call-${++calls}`,
        ...overrides
      }
      return tool.call(tool.inputSchema.parse(input), ctx)
    },
    cleanup: async () => {
      await jobs.dispose()
      await rm(base, { recursive: true, force: true })
    }
  }
}

export function textOf(output: ToolOutput): string {
  return outputText(output.content)
}

/** Waits until a file the command writes exists and holds a line, and returns that line. */
export async function readWhenWritten(file: string): Promise<string> {
  for (;;) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8').trim()
      if (text) return text
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Whether a process exists (and is not a zombie waiting to be reaped). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return true
  }
}

/** Waits until `pid` is gone; the test's own timeout fails it when it never goes. */
export async function gone(pid: number): Promise<true> {
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20))
  return true
}
