import type { TemporaryStorageSettings } from '../../../shared/temporary-storage'
import type { JobManager } from '../../jobs/job-manager'
import type { Tool } from '../tool'
import { shellTool, type ShellSandbox } from './shell'
import { shellStatusTool } from './shell-status'

/** Shell and ShellStatus, over one job manager. Left out entirely when the shell is turned off. */
export function shellTools(
  jobs: JobManager,
  sandbox: ShellSandbox | null = null,
  temp: TemporaryStorageSettings['mode'] = 'managed'
): Tool[] {
  return [shellTool(jobs, sandbox, temp), shellStatusTool(jobs)]
}
