// How a stdio server is stopped: as the MCP lifecycle says, its stdin is closed first, and one
// that keeps running after that is sent SIGTERM (after a short grace, not the SDK's 2 s).
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { expect, it, onTestFinished } from 'vitest'
import YAML from 'yaml'
import { createCore } from '../core'
import { stubbornServer } from '../../../testing/mcp-test-servers'

it('closes a server’s stdin first, then sends SIGTERM to one that keeps running', async () => {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-mcp-stop-')))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const workspace = path.join(dir, 'project')
  await mkdir(workspace)
  const log = path.join(dir, 'ended.log')
  const config = path.join(dir, 'settings.yaml')
  await writeFile(config, YAML.stringify({ mcp: [stubbornServer(log)] }))
  const core = await createCore({
    dataDir: path.join(dir, 'home'),
    configPath: config,
    host: 'cli',
    interactive: false
  })
  const names = (await core.catalogFor(workspace)).describe().map((tool) => tool.name)
  expect(names).toContain('mcp__stubborn__ping')
  await core.dispose()
  expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['stdin ended', 'SIGTERM'])
})
