import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'

const root = path.resolve(__dirname, '..')

it('npm test stops before running anything when a system package is missing and cannot be installed', () => {
  // A PATH with node alone: no ripgrep, no bubblewrap, and no apt-get to install them with.
  const bin = mkdtempSync(path.join(os.tmpdir(), 'mecatl-npm-test-path-'))
  try {
    symlinkSync(process.execPath, path.join(bin, 'node'))
    const result = spawnSync(process.execPath, ['scripts/test.mjs'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: bin },
      timeout: 30_000
    })
    const output = `${result.stdout}${result.stderr}`
    expect(result.status).toBe(1)
    expect(output).toMatch(
      /npm test: missing ripgrep \(.*\), bubblewrap \(.*\), python3 \(.*\), git/
    )
    expect(output).toContain('run `')
    expect(output).toMatch(/FAIL system packages/)
    expect(output).toMatch(/skip typecheck +\(not run: an earlier step failed\)/)
    expect(output).toMatch(/skip e2e tests/)
    expect(output).toContain('npm-test: 0 passed, 1 failed')
  } finally {
    rmSync(bin, { recursive: true, force: true })
  }
})
