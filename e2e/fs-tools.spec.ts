// The file tool suite end to end, headless: `mecatl run` against the fake model in both wire
// formats. Glob, Grep and an image Read in one reply (the image reaching the model in each API's
// own form), then Copy, Move and Remove changing the folder.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { stringify } from 'yaml'
import { expect, test } from '@playwright/test'
import { fakeModelKey, repoRoot, settingsFor } from './fixtures/app'
import type { SettingsPreset } from './fixtures/app'
import { latestToolResults, startFakeModelServer } from '../testing/fake-model-server'
import type { ToolResult } from '../testing/fake-model-server'

/** A 1×1 PNG. */
const png = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c63f8cf00000301010018dd8db40000000049454e44ae426082',
  'hex'
)

function runCli(args: string[], home: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['out/main/cli.js', ...args], {
      cwd: repoRoot,
      env: { ...process.env, MECATL_HOME: home, FAKE_MODEL_KEY: fakeModelKey },
      stdio: ['ignore', 'ignore', 'pipe']
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stderr }))
  })
}

function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true })
    writeFileSync(path.join(root, name), content)
  }
}

for (const preset of ['fake-openai', 'fake-anthropic'] satisfies SettingsPreset[]) {
  test(`file tools (${preset}): Glob, Grep and an image Read, then Copy, Move, Remove`, async () => {
    const fake = await startFakeModelServer({ requireKey: fakeModelKey })
    const home = mkdtempSync(path.join(os.tmpdir(), 'mecatl-e2e-home-'))
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'mecatl-e2e-ws-'))
    try {
      writeTree(workspace, {
        '.gitignore': 'dist/\n',
        'src/a.ts': 'export const a = "needle"\n',
        'src/deep/b.ts': 'no match here\n',
        'dist/out.ts': 'needle, but ignored\n',
        'old.txt': 'to be removed\n',
        'logo.png': png
      })
      const settings = settingsFor(preset, fake) as { providers: Record<string, unknown>[] }
      // The fake model takes images, as the setting says.
      settings.providers[0] = { ...settings.providers[0], image_models: ['fake-model'] }
      const settingsFile = path.join(home, 'settings.yaml')
      writeFileSync(settingsFile, stringify(settings))
      let seen: ToolResult[] = []
      fake.setScript([
        {
          toolCalls: [
            { name: 'Glob', input: { pattern: '**/*.ts' } },
            { name: 'Grep', input: { pattern: 'needle' } },
            { name: 'Read', input: { path: 'logo.png' } }
          ]
        },
        (req) => {
          seen = latestToolResults(req)
          return {
            toolCalls: [
              { name: 'Copy', input: { source: 'src/a.ts', destination: 'b.ts' } },
              { name: 'Move', input: { source: 'b.ts', destination: 'lib/b.ts' } },
              { name: 'Remove', input: { path: 'old.txt' } }
            ]
          }
        },
        { text: 'Done.' }
      ])

      const args = ['run', 'Tidy up', '--workspace', workspace, '--config', settingsFile]
      const result = await runCli([...args, '--mode', 'allow'], home)
      expect(result.code, result.stderr).toBe(0)
      expect(fake.stepErrors()).toEqual([])
      expect(fake.exhaustedRequests()).toEqual([])

      expect(seen[0]?.content).toBe('src/a.ts\nsrc/deep/b.ts')
      expect(seen[1]?.content).toBe('src/a.ts:1:export const a = "needle"')
      expect(seen[2]?.content).toContain(`\`logo.png\` is a PNG image, 1×1, ${png.length} bytes`)
      // The second request answers the first reply's calls, image included.
      const body = JSON.stringify(fake.requests.filter((r) => r.normalized)[1]?.body)
      const data = png.toString('base64')
      if (preset === 'fake-openai') {
        expect(body).toContain(`"url":"data:image/png;base64,${data}"`)
      } else {
        expect(body).toContain(`"media_type":"image/png","data":"${data}"`)
      }

      expect(existsSync(path.join(workspace, 'lib', 'b.ts'))).toBe(true)
      expect(existsSync(path.join(workspace, 'b.ts'))).toBe(false)
      expect(existsSync(path.join(workspace, 'src', 'a.ts'))).toBe(true)
      expect(existsSync(path.join(workspace, 'old.txt'))).toBe(false)
      expect(fake.lastToolResults().map((r) => r.content)).toEqual([
        'Copied `src/a.ts` to `b.ts` (26 bytes)',
        'Moved `b.ts` to `lib/b.ts`',
        'Removed `old.txt` (14 bytes)'
      ])
    } finally {
      await fake.close()
      rmSync(home, { recursive: true, force: true })
      rmSync(workspace, { recursive: true, force: true })
    }
  })
}
