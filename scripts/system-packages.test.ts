import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ensureSystemPackages, installCommand, missingPackages } from './system-packages.mjs'

let bin: string

/** Puts an executable `name` in the test's PATH directory (or at an absolute path). */
function install(name: string): void {
  const file = path.isAbsolute(name) ? name : path.join(bin, name)
  writeFileSync(file, '#!/bin/sh\nexit 0\n')
  chmodSync(file, 0o755)
}

/** PATH holds only `programs`; "Debian's Chromium" is the test folder's `chromium`. */
function envWith(...programs: string[]): Record<string, string> {
  for (const program of programs) install(program)
  return { PATH: bin }
}

const chromium = (): string => path.join(bin, 'chromium')

interface Call {
  command: string
  args: readonly string[]
  env: Record<string, string | undefined>
}

/** An apt-get that "installs" by putting the programs on PATH, recording what it was asked. */
function fakeApt(calls: Call[], provides: Record<string, string> = {}) {
  return (command: string, args: readonly string[], options: { env: Call['env'] }) => {
    calls.push({ command, args, env: options.env })
    if (args[0] === 'install') for (const name of args.slice(3)) install(provides[name] ?? name)
    return { status: 0, stdout: '', stderr: '', error: undefined }
  }
}

beforeEach(() => {
  bin = mkdtempSync(path.join(os.tmpdir(), 'mecatl-syspkg-'))
})
afterEach(() => rmSync(bin, { recursive: true, force: true }))

describe('the system packages npm test needs', () => {
  it('runs nothing when every program is there', () => {
    const env = envWith('chromium', 'rg', 'bwrap', 'python3', 'git')
    const calls: Call[] = []
    const outcome = ensureSystemPackages({
      env,
      run: fakeApt(calls),
      how: { root: true, apt: true },
      debianChromium: chromium()
    })
    expect(outcome).toEqual({ ok: true, installed: [] })
    expect(calls).toEqual([])
  })

  it('stops before installing anything when not root, with the one command to run', () => {
    const env = envWith('chromium', 'python3', 'git', 'apt-get')
    const calls: Call[] = []
    const outcome = ensureSystemPackages({
      env,
      run: fakeApt(calls),
      how: { root: false, apt: true },
      debianChromium: chromium()
    })
    expect(outcome.ok).toBe(false)
    expect(!outcome.ok && outcome.detail).toContain('`sudo apt-get install -y ripgrep bubblewrap`')
    expect(calls).toEqual([])
  })

  it('names the packages for another package manager where there is no apt-get', () => {
    const env = envWith('chromium', 'python3', 'git')
    const outcome = ensureSystemPackages({
      env,
      how: { root: true, apt: false },
      debianChromium: chromium()
    })
    expect(!outcome.ok && outcome.detail).toMatch(
      /missing ripgrep .*bubblewrap .*: run `apt-get install -y ripgrep bubblewrap`.*your system package manager/
    )
  })

  it('installs what is missing through apt as root, saying so in one line', () => {
    const env = envWith('python3', 'git')
    const calls: Call[] = []
    const lines: string[] = []
    const outcome = ensureSystemPackages({
      env,
      log: (line) => lines.push(line),
      run: fakeApt(calls, { chromium: chromium(), ripgrep: 'rg', bubblewrap: 'bwrap' }),
      how: { root: true, apt: true },
      debianChromium: chromium()
    })
    expect(outcome).toEqual({ ok: true, installed: ['chromium', 'ripgrep', 'bubblewrap'] })
    expect(lines).toEqual([
      'npm test: installing chromium ripgrep bubblewrap with apt-get (missing; running as root)'
    ])
    expect(calls.map((c) => [c.command, ...c.args])).toEqual([
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', 'chromium', 'ripgrep', 'bubblewrap']
    ])
    expect(calls.every((c) => c.env['DEBIAN_FRONTEND'] === 'noninteractive')).toBe(true)
    expect(missingPackages(env, chromium())).toEqual([])
  })

  it('fails, with what apt said, when apt-get fails', () => {
    const env = envWith('chromium', 'bwrap', 'python3', 'git')
    const outcome = ensureSystemPackages({
      env,
      log: () => undefined,
      run: () => ({ status: 100, stdout: '', stderr: 'E: Unable to locate package ripgrep\n' }),
      how: { root: true, apt: true },
      debianChromium: chromium()
    })
    expect(!outcome.ok && outcome.detail).toBe(
      'apt-get update failed:\nE: Unable to locate package ripgrep'
    )
  })

  it('fails when apt says it installed a package whose program is still missing', () => {
    const env = envWith('chromium', 'python3', 'git')
    // bubblewrap's program never appears.
    const run = fakeApt([], { bubblewrap: 'not-bwrap', ripgrep: 'rg' })
    const outcome = ensureSystemPackages({
      env,
      log: () => undefined,
      run,
      how: { root: true, apt: true },
      debianChromium: chromium()
    })
    expect(!outcome.ok && outcome.detail).toContain('bubblewrap is still missing')
  })

  it('never tries to install a Chromium the person named with MECATL_CHROMIUM', () => {
    const env = { ...envWith('rg', 'bwrap', 'python3', 'git'), MECATL_CHROMIUM: chromium() }
    const calls: Call[] = []
    const outcome = ensureSystemPackages({
      env,
      run: fakeApt(calls),
      how: { root: true, apt: true },
      debianChromium: chromium()
    })
    expect(!outcome.ok && outcome.detail).toContain(`MECATL_CHROMIUM is set to ${chromium()}`)
    expect(calls).toEqual([])
  })

  it('writes the command a person types: sudo unless root', () => {
    expect(installCommand(['bubblewrap'], { root: false, apt: true })).toBe(
      'sudo apt-get install -y bubblewrap'
    )
    expect(installCommand(['bubblewrap'], { root: true, apt: true })).toBe(
      'apt-get install -y bubblewrap'
    )
  })
})
