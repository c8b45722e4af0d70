// The guard that keeps processes out of the unit project: every way a test (or the code under
// test) could start one is refused, nothing runs, and what was tried is reported.
import cp, { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import * as pty from 'node-pty'
import { afterEach, describe, expect, it } from 'vitest'
import { ProcessRefused, refuseProcesses } from './process-guard'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('refuseProcesses', () => {
  it('refuses each way of starting a program, runs none of them, and names each', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mecatl-guard-'))
    dirs.push(dir)
    const marker = (name: string): string => path.join(dir, name)
    const cjs = createRequire(import.meta.url)('child_process') as typeof cp
    const attempts: [string, () => unknown][] = [
      ['named import spawn', () => spawn('touch', [marker('a')])],
      ['named import execFile', () => execFile('touch', [marker('b')])],
      ['default import spawnSync', () => cp.spawnSync('touch', [marker('c')])],
      ['require execSync', () => cjs.execSync(`touch ${marker('d')}`)],
      ['require exec', () => cjs.exec(`touch ${marker('e')}`)],
      ['require fork', () => cjs.fork(marker('f.js'))],
      ['execFileSync', () => cp.execFileSync('touch', [marker('g')])],
      ['node-pty', () => pty.spawn('touch', [marker('h')], {})]
    ]
    const guard = refuseProcesses()
    const errors = attempts.map(([, start]) => {
      try {
        start()
        return null
      } catch (error) {
        return error
      }
    })
    const refused = guard.restore()
    for (const [index, error] of errors.entries()) {
      expect(error, attempts[index]?.[0]).toBeInstanceOf(ProcessRefused)
    }
    expect(refused).toHaveLength(attempts.length)
    expect(refused[0]).toBe(`child_process.spawn: touch ${marker('a')}`)
    expect(refused[3]).toBe(`child_process.execSync: touch ${marker('d')}`)
    expect(refused[7]).toBe(`node-pty spawn: touch ${marker('h')}`)
    for (const name of 'abcdegh') expect(existsSync(marker(name))).toBe(false)
  })

  it('puts back exactly what it replaced, so guards nest', () => {
    const before = [cp.spawn, cp.execFile, cp.fork]
    const outer = refuseProcesses()
    const outerSpawn = cp.spawn
    const inner = refuseProcesses()
    expect(cp.spawn).not.toBe(outerSpawn)
    expect(inner.restore()).toEqual([])
    expect(cp.spawn).toBe(outerSpawn)
    expect(spawn).toBe(outerSpawn)
    expect(outer.restore()).toEqual([])
    expect([cp.spawn, cp.execFile, cp.fork]).toEqual(before)
  })
})
