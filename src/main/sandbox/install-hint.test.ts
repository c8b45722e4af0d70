import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { bubblewrapInstallHint } from './install-hint'

let bin: string
beforeEach(() => {
  bin = mkdtempSync(path.join(os.tmpdir(), 'mecatl-hint-'))
})
afterEach(() => rmSync(bin, { recursive: true, force: true }))

function provide(program: string): void {
  const file = path.join(bin, program)
  writeFileSync(file, '#!/bin/sh\n')
  chmodSync(file, 0o755)
}

it('gives the apt command, with sudo for a person who is not root', () => {
  provide('apt-get')
  expect(bubblewrapInstallHint({ PATH: bin }, false)).toBe(
    'run `sudo apt-get install -y bubblewrap`'
  )
  expect(bubblewrapInstallHint({ PATH: bin }, true)).toBe('run `apt-get install -y bubblewrap`')
})

it("names the machine's own package manager where there is no apt", () => {
  provide('dnf')
  expect(bubblewrapInstallHint({ PATH: bin }, false)).toBe('run `sudo dnf install -y bubblewrap`')
})

it('falls back to a sentence where it knows no package manager', () => {
  expect(bubblewrapInstallHint({ PATH: bin }, false)).toBe(
    "install your system's bubblewrap package"
  )
})
