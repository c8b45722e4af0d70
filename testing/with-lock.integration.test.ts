// with-lock.mjs serialises the CLI build between vitest workers: two test files that both find
// out/ older than the sources must not run electron-vite into the same folder at once.
import { spawn, spawnSync } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from './cli-runner'

const script = path.join(__dirname, 'with-lock.mjs')
let dir: string
let lock: string
let log: string

beforeEach(async () => {
  dir = await makeTempDir('with-lock')
  lock = path.join(dir, 'build.lock')
  log = path.join(dir, 'log.txt')
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

/**
 * A command under the lock that logs its start, holds the lock for `holdPolls` pauses of 5 ms
 * (long enough for the other process to start and try to enter: the pauses only widen the
 * window an unlocked run would interleave in), then logs its end.
 */
function holder(name: string, holdPolls = 0): string[] {
  const code = `
    const fs = require('node:fs')
    fs.appendFileSync(${JSON.stringify(log)}, 'start ${name}\\n')
    for (let i = 0; i < ${holdPolls}; i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5)
    fs.appendFileSync(${JSON.stringify(log)}, 'end ${name}\\n')`
  return [script, lock, '--', process.execPath, '-e', code]
}

function exited(args: string[]): Promise<number | null> {
  const child = spawn(process.execPath, args, { stdio: 'ignore' })
  return new Promise((resolve) => child.once('exit', resolve))
}

describe('with-lock.mjs', () => {
  it('runs two commands that share a lock one after the other, never interleaved', async () => {
    const codes = await Promise.all([exited(holder('a', 100)), exited(holder('b', 100))])
    expect(codes).toEqual([0, 0])
    const lines = (await readFile(log, 'utf8')).trim().split('\n')
    expect(lines).toHaveLength(4)
    const first = lines[0]?.split(' ')[1]
    const second = first === 'a' ? 'b' : 'a'
    expect(lines).toEqual([`start ${first}`, `end ${first}`, `start ${second}`, `end ${second}`])
  })

  it('takes over a lock whose holder died, and leaves no lock behind', async () => {
    // A pid that was alive once and is gone now: a child that has exited.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8'
    }).stdout
    await mkdir(lock)
    await writeFile(path.join(lock, 'pid'), dead)
    expect(await exited(holder('c'))).toBe(0)
    expect(await readFile(log, 'utf8')).toBe('start c\nend c\n')
    const again = spawnSync(process.execPath, [script, lock, '--', process.execPath, '-e', '0'])
    expect(again.status).toBe(0)
  })

  it("passes on the command's exit code and releases the lock when it fails", async () => {
    const failed = spawnSync(process.execPath, [
      script,
      lock,
      '--',
      process.execPath,
      '-e',
      'process.exit(7)'
    ])
    expect(failed.status).toBe(7)
    expect(await exited(holder('d'))).toBe(0)
  })

  it('says how to use it when the command is missing', () => {
    const result = spawnSync(process.execPath, [script, lock], { encoding: 'utf8' })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('usage: with-lock.mjs LOCK_DIR -- COMMAND [ARGS...]')
  })
})
