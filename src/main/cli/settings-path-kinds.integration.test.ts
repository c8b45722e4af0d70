import { spawn } from 'node:child_process'
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliPath, ensureCliBuilt, makeTempDir, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import { makeFifo } from '../../../testing/fifo'

// A settings path that holds something other than a settings file stops every command with
// exit 2 and the reason: never the defaults in its place, never a command that hangs on it.
let dir: string
let workspace: string

beforeAll(async () => {
  ensureCliBuilt()
  dir = await makeTempDir('settings-path-kinds')
  workspace = path.join(dir, 'project')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'notes.txt'), 'notes\n')
}, 180_000)
afterAll(async () => rm(dir, { recursive: true, force: true }))

/** A fresh data folder whose settings.yaml is made by `place`. */
async function homeWith(name: string, place: (file: string) => Promise<void>): Promise<string> {
  const home = path.join(dir, name)
  await mkdir(home)
  await place(path.join(home, 'settings.yaml'))
  return home
}

const kinds: [string, (file: string) => Promise<void>, RegExp][] = [
  [
    'a link to nothing',
    (file) => symlink(path.join(dir, 'gone.yaml'), file),
    /settings\.yaml is a link to .*gone\.yaml, which does not exist/
  ],
  ['a folder', (file) => mkdir(file), /settings\.yaml is a folder, not a settings file/],
  ['a FIFO', async (file) => makeFifo(file), /settings\.yaml is a FIFO \(a named pipe\)/]
]

describe('the user settings path', () => {
  it.each(kinds)(
    'as %s stops the command with exit 2 and the reason',
    async (name, place, why) => {
      const home = await homeWith(name.replaceAll(' ', '-'), place)
      for (const command of [
        ['tools', '--json'],
        ['call', 'Read', '{"path":"notes.txt"}', '--workspace', workspace, '--yes'],
        ['sessions', 'list', '--workspace', workspace]
      ]) {
        const result = await runCliInProcess(command, { home })
        expect(result.code, command.join(' ')).toBe(2)
        expect(result.stderr).toMatch(why)
        expect(result.stderr).toContain('so nothing ran')
        expect(result.stdout).toBe('')
      }
    },
    10_000
  )
})

describe('--config and the project settings', () => {
  it('--config naming a link to nothing or a FIFO stops the command the same way', async () => {
    const home = path.join(dir, 'config-home')
    await mkdir(home)
    const link = path.join(dir, 'dangling.yaml')
    await symlink(path.join(dir, 'nowhere.yaml'), link)
    const fifo = path.join(dir, 'pipe.yaml')
    makeFifo(fifo)
    const viaLink = await runCliInProcess(['tools', '--config', link], { home })
    expect(viaLink.code).toBe(2)
    expect(viaLink.stderr).toMatch(/dangling\.yaml is a link to .*nowhere\.yaml, which does not/)
    const viaFifo = await runCliInProcess(['tools', '--config', fifo], { home })
    expect(viaFifo.code).toBe(2)
    expect(viaFifo.stderr).toContain('pipe.yaml is a FIFO')
  }, 10_000)

  it('a project’s .mecatl/settings.yaml that is a FIFO stops it too', async () => {
    const home = path.join(dir, 'project-home')
    await mkdir(home)
    const project = path.join(dir, 'fifo-project')
    await mkdir(path.join(project, '.mecatl'), { recursive: true })
    makeFifo(path.join(project, '.mecatl', 'settings.yaml'))
    const result = await runCliInProcess(['tools', '--workspace', project], { home })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/\.mecatl\/settings\.yaml settings\.yaml is a FIFO/)
  }, 10_000)
})

describe('a settings file that cannot be read', () => {
  it('stops the command with exit 2 and the reason', async () => {
    const home = await homeWith('unreadable', async (file) => {
      await writeFile(file, 'permissions: { mode: read-only }\n')
      await chmod(file, 0o000)
    })
    // Root reads any file, so as root the command runs as nobody, who cannot.
    const asRoot = process.getuid?.() === 0
    if (asRoot) for (const folder of [dir, home]) await chmod(folder, 0o755)
    const result = await new Promise<CliResult>((resolve) => {
      const child = spawn(process.execPath, [cliPath, 'tools', '--json'], {
        cwd: home,
        env: { PATH: process.env.PATH, MECATL_HOME: home },
        ...(asRoot ? { uid: 65534, gid: 65534 } : {})
      })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }))
    })
    expect(result.stderr).toMatch(/cannot read .*settings\.yaml: EACCES/)
    expect(result.code).toBe(2)
  }, 30_000)
})
