import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'

/** The rule of the issue's report: `rm` forbidden, whatever the mode says. */
const forbidRm = { mode: 'allow', rules: [{ tool: 'Shell', command: 'rm', decision: 'forbid' }] }

async function breakFile(file: string, extra: string): Promise<void> {
  await writeFile(file, `${await readFile(file, 'utf8')}${extra}`)
}

async function send(h: CoreHarness, text: string): Promise<string> {
  const { id } = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: id, text })
  await h.core.sessions.idle(id)
  return id
}

describe('a settings file that stops validating while the app runs', () => {
  it('keeps the last valid settings in force, so a forbid rule still refuses rm', async () => {
    const h = await startCoreHarness({
      name: 'fail-closed',
      files: { 'victim.txt': 'keep me\n' },
      settings: { permissions: forbidRm },
      script: [
        { toolCalls: [{ name: 'Shell', input: { command: 'rm victim.txt' } }] },
        { text: 'ok' }
      ]
    })
    // A typo elsewhere in the file, made in an editor while the app runs.
    await breakFile(h.config, 'shel: { enabled: true }\n')
    await send(h, 'clean up')

    expect(await readFile(path.join(h.workspace, 'victim.txt'), 'utf8')).toBe('keep me\n')
    expect(h.fake.lastToolResults()[0]?.content).toMatch(/A permission rule forbids this/)
    const status = await h.client.call('settings.status', { workspace: h.workspace })
    expect(status).toEqual({
      blocked: false,
      files: [
        {
          scope: 'user',
          path: h.config,
          source: 'last-valid',
          issues: [
            {
              path: 'shel',
              line: expect.any(Number),
              column: 1,
              message: '"shel" is not a setting here; did you mean "shell"?'
            }
          ]
        }
      ]
    })
    // The window is told, so its banner appears without a reload.
    expect(h.events.some((e) => e.event === 'settings.status')).toBe(true)
  })
})

describe('a broken settings file with no valid copy', () => {
  it('runs no turn: the send is refused with the problems, and nothing reaches the model', async () => {
    const h = await startCoreHarness({
      name: 'blocked',
      settings: { permissions: { mode: 'allow', rulez: [] } },
      script: [{ text: 'must not be asked' }]
    })
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await expect(h.client.call('session.send', { sessionId: id, text: 'hello' })).rejects.toThrow(
      /Nothing can run until the settings are fixed: .*settings\.yaml has a problem, first \(line \d+\): permissions\.rulez: "rulez" is not a setting here; did you mean "rules"\?/
    )
    expect(h.fake.chatRequests()).toHaveLength(0)
    const status = await h.client.call('settings.status', {})
    expect(status.blocked).toBe(true)

    // Fixed in Settings: the next message runs.
    const raw = (await h.client.call('settings.get', {})).settings as Record<string, unknown>
    const saved = await h.client.call('settings.save', {
      settings: { ...raw, permissions: { mode: 'allow', rules: [] } }
    })
    expect(saved).toEqual({ saved: true, issues: [] })
    await h.client.call('session.send', { sessionId: id, text: 'hello' })
    await h.core.sessions.idle(id)
    expect(h.fake.chatRequests()).toHaveLength(1)
    expect((await h.client.call('settings.status', {})).blocked).toBe(false)
  })
})

describe("a project's own settings file", () => {
  async function projectHarness(rules: unknown[]): Promise<CoreHarness> {
    const h = await startCoreHarness({
      name: 'project-closed',
      files: { 'victim.txt': 'keep me\n' },
      script: [
        { toolCalls: [{ name: 'Shell', input: { command: 'rm victim.txt' } }] },
        { text: 'ok' }
      ]
    })
    await mkdir(path.join(h.workspace, '.mecatl'))
    await writeFile(
      path.join(h.workspace, '.mecatl', 'settings.yaml'),
      YAML.stringify({ permissions: { rules } })
    )
    return h
  }

  it('broken after it was valid: its forbid rule stays in force from the copy in the data folder', async () => {
    const h = await projectHarness([{ tool: 'Shell', command: 'rm', decision: 'forbid' }])
    const file = path.join(h.workspace, '.mecatl', 'settings.yaml')
    await h.client.call('rules.list', { workspace: h.workspace })
    await breakFile(file, 'mpc: []\n')
    await send(h, 'clean up')
    expect(await readFile(path.join(h.workspace, 'victim.txt'), 'utf8')).toBe('keep me\n')
    expect(h.fake.lastToolResults()[0]?.content).toMatch(/A permission rule forbids this/)
    const status = await h.client.call('settings.status', { workspace: h.workspace })
    expect(status.files).toEqual([
      expect.objectContaining({ scope: 'project', path: file, source: 'last-valid' })
    ])
    expect(status.files[0]?.issues[0]?.message).toMatch(/did you mean "mcp"\?/)
    // The copy lives in the data directory, never in the project folder.
    expect((await readFile(file, 'utf8')).includes('mpc')).toBe(true)
    expect(
      await import('node:fs/promises').then((fs) => fs.readdir(path.join(h.workspace, '.mecatl')))
    ).toEqual(['settings.yaml'])
  })

  it('broken with no valid copy: no turn runs in that project', async () => {
    const h = await projectHarness([{ tool: 'Shell', command: 'rm', decision: 'forbid', bogus: 1 }])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await expect(h.client.call('session.send', { sessionId: id, text: 'go' })).rejects.toThrow(
      /\.mecatl\/settings\.yaml has a problem/
    )
    expect(h.fake.chatRequests()).toHaveLength(0)
    expect(await readFile(path.join(h.workspace, 'victim.txt'), 'utf8')).toBe('keep me\n')
  })
})
