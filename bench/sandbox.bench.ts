import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { JobManager } from '../src/main/jobs/job-manager'
import { SandboxService } from '../src/main/sandbox/sandbox-service'
import { settingsSchema } from '../src/shared/settings'
import { interleavedMedians, report, reportAmount } from './measure'

/** The sandbox's cost per command: under this many milliseconds added to `true`. */
const ADDED_MS_TARGET = 15

/**
 * `true` as a Shell job, confined by bubblewrap against unconfined, in the same run: what the
 * sandbox adds to every command (a user namespace, the seccomp filter, the policy's mounts).
 * Against it, the bare start of bubblewrap itself (`bwrap --ro-bind / / true` as a job): the
 * sandbox should cost less than twice what bubblewrap alone does.
 */
export async function benchSandbox(dir: string, workspace: string): Promise<void> {
  const settings = settingsSchema.parse({ sandbox: { kind: 'bwrap' } })
  const dataDir = path.join(dir, 'sandbox-data')
  await mkdir(dataDir, { recursive: true })
  const sandbox = new SandboxService({ dataDir })
  const status = await sandbox.prepare(settings)
  if (status.state !== 'confined') {
    console.log(`sandbox: not measured (${JSON.stringify(status)})`)
    return
  }
  const jobs = new JobManager({ tempBase: dir })
  const run = async (confined: boolean, command = 'true'): Promise<void> => {
    const job = await jobs.start({
      sessionId: 'bench',
      workspace,
      callId: null,
      command,
      background: false,
      timeoutMs: null,
      confine: confined ? (tmp) => sandbox.confine(settings, workspace, tmp) : undefined
    })
    await job.finished
    jobs.release(job)
  }
  const [bare = 0, confined = 0, bwrapAlone = 0] = await interleavedMedians(
    [() => run(false), () => run(true), () => run(false, 'bwrap --ro-bind / / --dev /dev true')],
    31
  )
  await jobs.dispose()
  report('sandbox: `true` as a Shell job, confined', confined, 'the same unconfined', bare)
  reportAmount(
    'sandbox: added per command',
    confined - bare,
    'ms',
    `the ${ADDED_MS_TARGET} ms target`,
    ADDED_MS_TARGET
  )
  reportAmount(
    'sandbox: added per command',
    confined - bare,
    'ms',
    "twice bare bwrap's start",
    2 * (bwrapAlone - bare)
  )
}
