import { existsSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  alive,
  createShellHarness,
  gone,
  readWhenWritten,
  textOf,
  type ShellHarness
} from '../../../../testing/shell-harness'

let h: ShellHarness

beforeEach(async () => {
  h = await createShellHarness()
})

afterEach(async () => {
  await h.cleanup()
})

/** Starts a background job and returns its id, read from Shell's answer. */
async function startJob(command: string, sessionId = 's1'): Promise<string> {
  const out = await h.run(h.shell, { command, background: true }, { sessionId })
  expect(out.isError).toBe(false)
  const id = /bashcmd-\d+/.exec(textOf(out))?.[0]
  if (!id) throw new Error(`no job id in: ${textOf(out)}`)
  return id
}

describe('Shell with background: true', () => {
  it('returns a job id at once while the command keeps running', async () => {
    const id = await startJob('echo $$ > shell.pid; sleep 30')
    expect(id).toMatch(/^bashcmd-\d+$/)
    const pid = Number(await readWhenWritten(path.join(h.root, 'shell.pid')))
    expect(alive(pid)).toBe(true)
  })

  it('names the job it started as a field for the window, the same id the model reads', async () => {
    const out = await h.run(h.shell, { command: 'sleep 30', background: true })
    const id = /bashcmd-\d+/.exec(textOf(out))?.[0]
    expect(out.display).toEqual({ kind: 'job', jobId: id })
    expect(h.jobs.get(id ?? '')?.running).toBe(true)
  })

  it('gives a foreground command no job field: its job is gone once it returns', async () => {
    const out = await h.run(h.shell, { command: 'echo hi' })
    expect(out.display).toBeUndefined()
  })
})

describe('ShellStatus', () => {
  it('lists this session’s jobs, and only them', async () => {
    const running = await startJob('sleep 30')
    const done = await startJob('exit 4')
    await startJob('sleep 30', 'other-session')
    await h.run(h.status, { job_id: done, wait_ms: 10_000 })

    const out = await h.run(h.status, {})
    const text = textOf(out)
    expect(out.isError).toBe(false)
    expect(text).toMatch(/^2 background jobs in this session:/)
    expect(text).toContain(`- ${running} · running for`)
    expect(text).toContain('`sleep 30`')
    expect(text).toContain(`- ${done} · exited with code 4 · started`)
    expect(text).toMatch(/started \d\d:\d\d:\d\d/)
    expect(text).toContain('result collected')
  })

  it('says so when there are no jobs', async () => {
    expect(textOf(await h.run(h.status, {}))).toBe('No background jobs in this session.')
  })

  it('shows only the tail of a running job’s output', async () => {
    const id = await startJob('seq 1 20000; echo ready > ready.txt; sleep 30')
    await readWhenWritten(path.join(h.root, 'ready.txt'))
    // The file can land before the pty has handed over the last lines: wait for them (bounded).
    let text = ''
    for (let i = 0; i < 200 && !text.includes('\n20000\n'); i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 25))
      text = textOf(await h.run(h.status, { job_id: id }))
    }
    expect(text).toContain(`${id} is still running`)
    expect(text).toMatch(/Latest output:\n\d+\n[\s\S]*\n20000\n/)
    expect(text).not.toContain('\n1\n2\n3\n')
    expect(text).toMatch(/Showing the last [\d,]+ characters/)
    expect(text.length).toBeLessThan(5000)
  })

  it('collects a finished job’s whole result exactly once', async () => {
    const id = await startJob('echo one; echo two; exit 0')
    const first = await h.run(h.status, { job_id: id, wait_ms: 10_000 })
    expect(first.isError).toBe(false)
    expect(textOf(first)).toContain(`${id}: \`echo one; echo two; exit 0\``)
    expect(textOf(first)).toContain('Exit code 0')
    expect(textOf(first)).toContain('one\ntwo')

    const again = await h.run(h.status, { job_id: id })
    expect(again.isError).toBe(false)
    expect(textOf(again)).toContain(`${id} has ended. Exit code 0`)
    expect(textOf(again)).toContain('already returned')
    expect(textOf(again)).not.toContain('one\ntwo')
  })

  it('makes a failed job’s result an error that gives the exit code', async () => {
    const id = await startJob('echo broken; exit 2')
    const out = await h.run(h.status, { job_id: id, wait_ms: 10_000 })
    expect(out.isError).toBe(true)
    expect(textOf(out)).toContain('The command failed with exit code 2')
    expect(textOf(out)).toContain('broken')
  })

  it('waits up to wait_ms, and gives the tail of a job still running', async () => {
    const id = await startJob('echo warming up; sleep 30')
    const out = await h.run(h.status, { job_id: id, wait_ms: 300 })
    expect(out.isError).toBe(false)
    const text = textOf(out)
    expect(text).toContain(`${id} is still running`)
    expect(text).toContain('It did not finish within the 300 ms waited.')
    expect(text).toContain('Command: `echo warming up; sleep 30`')
    expect(text).toContain('Latest output:\nwarming up')
  })

  it('returns as soon as the job ends when it ends within wait_ms', async () => {
    const id = await startJob('sleep 0.2; echo finished')
    const out = await h.run(h.status, { job_id: id, wait_ms: 60_000 })
    expect(textOf(out)).toContain('Exit code 0')
    expect(textOf(out)).toContain('finished')
  })

  it('stops waiting when the turn is stopped', async () => {
    const id = await startJob('sleep 30')
    const controller = new AbortController()
    const waiting = h.run(h.status, { job_id: id, wait_ms: 600_000 }, { signal: controller.signal })
    controller.abort()
    expect(textOf(await waiting)).toContain(`${id} is still running`)
  })

  it('cancel kills the whole process group: a child of a child is gone afterwards', async () => {
    // The job starts a child, which starts a grandchild; each writes its pid.
    const id = await startJob(
      "bash -c 'sleep 300 & echo $! > grandchild.pid; wait' & echo $! > child.pid; wait"
    )
    const child = Number(await readWhenWritten(path.join(h.root, 'child.pid')))
    const grandchild = Number(await readWhenWritten(path.join(h.root, 'grandchild.pid')))
    expect(alive(child)).toBe(true)
    expect(alive(grandchild)).toBe(true)

    const out = await h.run(h.status, { job_id: id, cancel: true })
    expect(out.isError).toBe(true)
    expect(textOf(out)).toMatch(/The command was cancelled by the model after/)
    expect(await gone(child)).toBe(true)
    expect(await gone(grandchild)).toBe(true)
    // Cancelling returned the result: it is collected.
    expect(textOf(await h.run(h.status, { job_id: id }))).toContain('already returned')
  })

  it('lists a cancelled job as cancelled with its stop reason, whatever code its shell left', async () => {
    // One ends the way most do (killed mid-sleep); one traps the signal and exits 0 itself,
    // which is where the list used to read "exited with code 0".
    const plain = await startJob('sleep 300')
    const trapping = await startJob(
      "trap 'exit 0' TERM; echo ready > trap-ready.txt; while :; do sleep 0.05; done"
    )
    await readWhenWritten(path.join(h.root, 'trap-ready.txt'))
    await h.run(h.status, { job_id: plain, cancel: true })
    await h.run(h.status, { job_id: trapping, cancel: true })
    const timedOut = await h.run(h.shell, {
      command: 'sleep 300',
      background: true,
      timeout_ms: 1000
    })
    const late = /bashcmd-\d+/.exec(textOf(timedOut))?.[0] ?? ''
    await h.run(h.status, { job_id: late, wait_ms: 60_000 })

    const listed = textOf(await h.run(h.status, {}))
    for (const id of [plain, trapping]) {
      expect(listed).toContain(`- ${id} · cancelled (cancelled by the model) · started`)
    }
    expect(listed).toMatch(new RegExp(`- ${late} · timed out after [^·]+ · started`))
    expect(listed).not.toContain('exited with code')
  })

  it('cancel also reaches a grandchild that made its own process group', async () => {
    // `set -m` puts each background command in a process group of its own.
    const id = await startJob('set -m; sleep 300 & echo $! > own-group.pid; wait')
    const pid = Number(await readWhenWritten(path.join(h.root, 'own-group.pid')))
    expect(alive(pid)).toBe(true)
    await h.run(h.status, { job_id: id, cancel: true })
    expect(await gone(pid)).toBe(true)
  })

  it('removes a background job’s TMPDIR when it ends', async () => {
    const id = await startJob('echo "$TMPDIR" > tmp.txt; touch "$TMPDIR/a"; sleep 30')
    const dir = await readWhenWritten(path.join(h.root, 'tmp.txt'))
    expect(existsSync(dir)).toBe(true)
    await h.run(h.status, { job_id: id, cancel: true })
    expect(existsSync(dir)).toBe(false)
  })

  it('refuses an unknown job, another session’s job, and wait_ms without a job', async () => {
    const theirs = await startJob('sleep 30', 'other-session')
    const unknown = await h.run(h.status, { job_id: 'bashcmd-999' })
    expect(unknown.isError).toBe(true)
    expect(textOf(unknown)).toBe(
      'There is no background job bashcmd-999 in this session; call ShellStatus with no arguments to list them.'
    )
    expect((await h.run(h.status, { job_id: theirs })).isError).toBe(true)
    const noJob = await h.run(h.status, { wait_ms: 100 })
    expect(noJob.isError).toBe(true)
    expect(textOf(noJob)).toContain('wait_ms and cancel need a job_id')
  })

  it('stops the jobs still running when the session ends', async () => {
    await startJob('echo $$ > a.pid; sleep 300')
    const pid = Number(await readWhenWritten(path.join(h.root, 'a.pid')))
    await h.jobs.stopSession('s1')
    expect(await gone(pid)).toBe(true)
    const [job] = h.jobs.list(h.root)
    expect(job?.state).toBe('stopped')
    expect(job?.stopReason).toBe('stopped because the session ended')
  })
})
