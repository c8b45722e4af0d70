import type { JobManager } from '../../jobs/job-manager'
import type { Tool } from '../tool'
import { shellTool } from './shell'
import { shellStatusTool } from './shell-status'

/** Shell and ShellStatus, over one job manager. Left out entirely when the shell is turned off. */
export function shellTools(jobs: JobManager): Tool[] {
  return [shellTool(jobs), shellStatusTool(jobs)]
}
