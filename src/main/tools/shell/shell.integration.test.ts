import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createShellHarness,
  gone,
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

describe('Shell', () => {
  it('runs in the project folder and returns the output and exit code 0', async () => {
    const out = await h.run(h.shell, { command: 'pwd; echo hello' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toMatch(/^Exit code 0/)
    expect(textOf(out)).toContain(`${h.root}\nhello`)
  })

  it('makes a non-zero exit an error that gives the code and keeps the output', async () => {
    const out = await h.run(h.shell, { command: 'echo "about to fail" >&2; exit 3' })
    expect(out.isError).toBe(true)
    expect(textOf(out)).toMatch(/^The command failed with exit code 3/)
    expect(textOf(out)).toContain('about to fail')
  })

  it('says when a command is not found', async () => {
    const out = await h.run(h.shell, { command: 'no-such-command-mecatl' })
    expect(out.isError).toBe(true)
    expect(textOf(out)).toContain('exit code 127')
    expect(textOf(out)).toContain('no-such-command-mecatl: command not found')
  })

  it('reports a command bash cannot parse as a failure with bash’s own message', async () => {
    const out = await h.run(h.shell, { command: 'echo "unterminated' })
    expect(out.isError).toBe(true)
    expect(textOf(out)).toMatch(/^The command failed with exit code 2/)
    expect(textOf(out)).toContain('unexpected EOF')
  })

  it('stops a command at its timeout and says it timed out, with what it printed', async () => {
    const out = await h.run(h.shell, { command: 'echo started; sleep 30', timeout_ms: 1000 })
    expect(out.isError).toBe(true)
    expect(textOf(out)).toMatch(/^The command timed out after 1 s and was stopped/)
    expect(textOf(out)).toContain('started')
  })

  it('gives the model plain text, colours and CRLF removed', async () => {
    const out = await h.run(h.shell, { command: "printf '\\033[31mred\\033[0m\\nnext\\n'" })
    expect(textOf(out)).toContain('red\nnext')
    expect(textOf(out)).not.toContain('\x1b')
    expect(textOf(out)).not.toContain('\r')
  })

  it('gives a command empty stdin, so a prompt ends instead of hanging', async () => {
    const out = await h.run(h.shell, { command: 'read -r answer; echo "got [$answer] $?"' })
    expect(textOf(out)).toContain('got [] 1')
  })

  it('gives each command a private TMPDIR and removes it when the command ends', async () => {
    const first = await h.run(h.shell, { command: 'echo "$TMPDIR"; touch "$TMPDIR/scratch"' })
    const second = await h.run(h.shell, { command: 'echo "$TMPDIR"; ls -A "$TMPDIR"' })
    const dirOf = (text: string): string => text.split('\n\n')[1]?.split('\n')[0] ?? ''
    const a = dirOf(textOf(first))
    const b = dirOf(textOf(second))
    expect(a.startsWith(h.tempBase)).toBe(true)
    expect(b.startsWith(h.tempBase)).toBe(true)
    expect(a).not.toBe(b)
    // The second saw an empty directory: nothing of the first's.
    expect(textOf(second).trim().endsWith(b)).toBe(true)
    expect(existsSync(a)).toBe(false)
    expect(existsSync(b)).toBe(false)
  })

  it('removes a timed-out command’s TMPDIR too', async () => {
    await h.run(h.shell, {
      command: 'echo "$TMPDIR" > where.txt; touch "$TMPDIR/x"; sleep 30',
      timeout_ms: 1000
    })
    const dir = readFileSync(path.join(h.root, 'where.txt'), 'utf8').trim()
    expect(dir.startsWith(h.tempBase)).toBe(true)
    expect(existsSync(dir)).toBe(false)
  })

  it('keeps the tail of a flood of output and reports how much was dropped', async () => {
    const small = await createShellHarness({ ringBytes: 4096 })
    try {
      const out = await small.run(small.shell, {
        command: "head -c 200000 /dev/zero | tr '\\0' x; echo; echo THE-END"
      })
      const text = textOf(out)
      expect(out.isError).toBe(false)
      expect(text).toMatch(/The first [\d.]+ KB of output were not kept/)
      expect(text.trim().endsWith('THE-END')).toBe(true)
      expect(text.length).toBeLessThan(4096 + 400)
    } finally {
      await small.cleanup()
    }
  })

  it('is stopped by the turn being stopped, and says so', async () => {
    const controller = new AbortController()
    const running = h.run(h.shell, { command: 'echo go; sleep 30' }, { signal: controller.signal })
    await waitForRunning(h, 1)
    controller.abort()
    const out = await running
    expect(out.isError).toBe(true)
    expect(textOf(out)).toMatch(/^The command was stopped because the turn was stopped/)
  })

  it('is stopped by the person through its call id, and says so', async () => {
    const running = h.run(h.shell, { command: 'sleep 30' }, { callId: 'the-call' })
    await waitForRunning(h, 1)
    expect(h.jobs.stopCall('s1', 'the-call', 'person')).toBe(true)
    const out = await running
    expect(out.isError).toBe(true)
    expect(textOf(out)).toMatch(/^The person stopped the command after/)
    // A finished foreground command leaves the manager.
    expect(h.jobs.list(h.root)).toEqual([])
  })

  it('refuses a timeout over the cap', () => {
    expect(h.shell.inputSchema.safeParse({ command: 'true', timeout_ms: 3_600_000 }).success).toBe(
      false
    )
  })

  it('leaves nothing of a foreground command running after it ends', async () => {
    // A child that ignores the hang-up the terminal sends when the shell exits; the command
    // returns once the child is set up.
    const out = await h.run(h.shell, {
      command:
        "(trap '' HUP; echo $BASHPID > child.pid; exec sleep 300) & " +
        'while [ ! -s child.pid ]; do sleep 0.01; done; echo started'
    })
    expect(textOf(out)).toContain('started')
    const pid = Number(readFileSync(path.join(h.root, 'child.pid'), 'utf8'))
    expect(pid).toBeGreaterThan(0)
    expect(await gone(pid)).toBe(true)
  })
})

async function waitForRunning(harness: ShellHarness, count: number): Promise<void> {
  while (harness.jobs.list(harness.root).filter((j) => j.state === 'running').length < count) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
