// `mecatl run` says on stderr what the window says during a retry's wait, and stdout keeps only
// the reply: a real CLI process against a flaky model server on loopback.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import YAML from 'yaml'
import { makeTempDir } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import { startFlakyModelServer, type FlakyModelServer } from '../../../testing/flaky-model-server'

let dir: string
let flaky: FlakyModelServer

beforeAll(async () => {
  dir = await makeTempDir('cli-retries')
  await mkdir(path.join(dir, 'project'))
}, 120_000)

afterAll(async () => {
  await flaky?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

it('prints "Retrying in 1 s (rate limited)…" on stderr, then the whole reply once', async () => {
  flaky = await startFlakyModelServer([{ status: 429, headers: { 'retry-after': '1' } }, 'reset'])
  const config = path.join(dir, 'settings.yaml')
  await writeFile(
    config,
    YAML.stringify({
      providers: [
        { id: 'fake', kind: 'openai', base_url: flaky.openaiBaseUrl, api_key_env: 'FAKE_KEY' }
      ],
      default_model: { provider: 'fake', model: 'fake-model' },
      permissions: { mode: 'allow' },
      provider_retry_base_ms: 20
    })
  )
  const result = await runCliInProcess(
    ['run', '--config', config, '--workspace', path.join(dir, 'project'), 'hello'],
    { home: path.join(dir, 'home'), env: { FAKE_KEY: 'sk-test' } }
  )
  expect(result.stderr).toContain(
    'mecatl: Retrying in 1 s (rate limited)… (retry 1 of 4; Ctrl-C stops)'
  )
  expect(result.stderr).toMatch(/mecatl: Retrying in 1 s \(connection dropped\)… \(retry 2 of 4/)
  expect(result.code).toBe(0)
  // The cut reply's words were shown once, then the retry's whole reply on a line of its own.
  const lines = result.stdout.split('\n').filter((line) => line !== '')
  expect(lines.at(-1)).toBe(flaky.text)
  expect(flaky.arrivals).toHaveLength(3)
})
