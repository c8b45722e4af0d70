import { mecatlKeyNames } from '../../shared/command-env'
import type { EventHub } from '../events/event-hub'
import type { Feature } from '../feature'
import type { SettingsStore } from '../settings/settings-store'
import { JobManager, type JobManagerOptions } from './job-manager'
import { sweepOrphanedJobs } from './orphan-sweep'

/** Shell commands and background jobs, for every session. */
export const jobsFeature: Feature<
  {
    options: { jobs?: Pick<JobManagerOptions, 'tempBase' | 'ringBytes'> }
    env: NodeJS.ProcessEnv
    settings: SettingsStore
    hub: EventHub
  },
  { jobs: JobManager }
> = {
  name: 'jobs',
  start({ options, env, settings, hub }) {
    const jobs = new JobManager({
      env,
      // Commands get PATH, HOME, LANG… and what the person listed; never a key Mecatl itself uses.
      envPolicy: () => {
        const current = settings.snapshot()
        return { passthrough: current.shell.env_passthrough, never: mecatlKeyNames(current) }
      },
      // Read at each command and each reaper pass (the reaper replaces the sweep at start).
      temporaryStorage: () => settings.snapshot().temporary_storage,
      events: {
        updated: (job) => hub.emit('job.updated', job),
        output: (jobId, batch) => hub.emit('job.output', { jobId, ...batch }),
        dismissed: (jobId) => hub.emit('job.dismissed', { jobId })
      },
      ...options.jobs
    })
    // Processes that jobs of a Mecatl killed outright left running: only ours, proved by the
    // job marker in their environment and by their owner being gone (see orphan-sweep.ts).
    const orphansSwept = sweepOrphanedJobs().catch(() => undefined)
    return {
      provides: { jobs },
      // Jobs still running are stopped with everything they started.
      stop: async () => {
        await jobs.dispose()
        await orphansSwept
      }
    }
  }
}
