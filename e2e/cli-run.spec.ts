// The headless path, no browser: `mecatl run` against the fake model in both wire formats. When a
// window spec fails, this one says whether the engine or the UI is to blame.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { stringify } from 'yaml'
import { fakeModelKey, repoRoot, sampleFiles, settingsFor } from './fixtures/app'
import type { SettingsPreset } from './fixtures/app'
import { latestToolResults, startFakeModelServer } from '../testing/fake-model-server'
import { expect, test } from '@playwright/test'
import { readWorkspaceFile } from './fixtures/chat'

interface RunResult {
  code: number | null
  events: { type: string; [key: string]: unknown }[]
  stderr: string
}

function runCli(args: string[], home: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['out/main/cli.js', ...args], {
      cwd: repoRoot,
      env: { ...process.env, MECATL_HOME: home, FAKE_MODEL_KEY: fakeModelKey },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.once('error', reject)
    child.once('close', (code) => {
      const events = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as RunResult['events'][number])
      resolve({ code, events, stderr })
    })
  })
}

for (const preset of ['fake-openai', 'fake-anthropic'] satisfies SettingsPreset[]) {
  test(`mecatl run (${preset}): Read then Write, allowed by --mode allow`, async () => {
    const fake = await startFakeModelServer({ requireKey: fakeModelKey })
    const home = mkdtempSync(path.join(os.tmpdir(), 'mecatl-e2e-home-'))
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'mecatl-e2e-ws-'))
    try {
      writeFileSync(path.join(workspace, 'README.md'), sampleFiles['README.md'] ?? '')
      const settingsFile = path.join(home, 'settings.yaml')
      writeFileSync(settingsFile, stringify(settingsFor(preset, fake)))
      fake.setScript([
        { text: 'Reading first.', toolCalls: [{ name: 'Read', input: { path: 'README.md' } }] },
        (req) => ({
          toolCalls: [
            {
              name: 'Write',
              input: { path: 'copy.md', content: latestToolResults(req)[0]?.content ?? '' }
            }
          ]
        }),
        { text: 'Copied.', usage: { input: 300, output: 3, cached: 200 } }
      ])

      const result = await runCli(
        ['run', 'Copy README.md', '--workspace', workspace, '--config', settingsFile].concat([
          '--mode',
          'allow',
          '--json'
        ]),
        home
      )
      expect(result.code, result.stderr).toBe(0)
      expect(result.events.map((e) => e.type)).toContain('turn.completed')
      expect(readWorkspaceFile(workspace, 'copy.md')).toContain('Sample project')
      expect(fake.chatRequests()).toHaveLength(3)
      expect(fake.chatRequests()[0]?.tools).toEqual(expect.arrayContaining(['Read', 'Write']))
      expect(fake.exhaustedRequests()).toEqual([])
      expect(fake.stepErrors()).toEqual([])
    } finally {
      await fake.close()
      rmSync(home, { recursive: true, force: true })
      rmSync(workspace, { recursive: true, force: true })
    }
  })
}
