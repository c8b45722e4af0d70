import { spawn } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliPath, ensureCliBuilt, makeTempDir, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'

// Settings fail closed on the command line: a file that does not validate stops every command
// with exit 2 and the list of its problems; nothing ever runs on the defaults instead.
let dir: string
let workspace: string
let home: string
let broken: string

beforeAll(async () => {
  dir = await makeTempDir('cli-settings')
  workspace = path.join(dir, 'project')
  home = path.join(dir, 'home')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'notes.txt'), 'notes\n')
  broken = path.join(dir, 'broken.yaml')
  await writeFile(
    broken,
    [
      'permissions:',
      '  mode: read-only',
      '  rules:',
      '    - { tool: Shell, command: rm, decision: forbid }',
      'shell: { enabld: false }',
      'max_tokens: many'
    ].join('\n')
  )
}, 120_000)
afterAll(async () => rm(dir, { recursive: true, force: true }))

function mecatl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCliInProcess(args, { home, env })
}

describe('a settings file that does not validate', () => {
  it('stops every command with exit 2, listing each problem with its line, column and a suggestion', async () => {
    const commands = [
      ['tools', '--json'],
      ['call', 'Read', '{"path":"notes.txt"}', '--workspace', workspace, '--mode', 'allow'],
      [
        'run',
        'hello',
        '--workspace',
        workspace,
        '--model',
        'm',
        '--base-url',
        'http://127.0.0.1:9'
      ],
      ['rules', 'check', 'rm -rf /'],
      ['memory', 'search', 'x', '--workspace', workspace],
      ['sessions', 'list', '--workspace', workspace]
    ]
    for (const command of commands) {
      const result = await mecatl([...command, '--config', broken])
      expect(result.code, command.join(' ')).toBe(2)
      expect(result.stdout, command.join(' ')).toBe('')
      expect(result.stderr).toContain(`the settings file ${broken} has 2 problems, so nothing ran`)
      expect(result.stderr).toContain(
        `${broken}:5:10 shell.enabld: "enabld" is not a setting here; did you mean "enabled"?`
      )
      expect(result.stderr).toContain(`${broken}:6:1 max_tokens:`)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    }
  })

  it("stops on the project's own settings file too", async () => {
    const project = path.join(dir, 'with-project-file')
    await mkdir(path.join(project, '.mecatl'), { recursive: true })
    const file = path.join(project, '.mecatl', 'settings.yaml')
    await writeFile(file, 'permissions:\n  rules:\n    - { tool: Remove, decison: forbid }\n')
    const result = await mecatl(['call', 'ListDir', '{}', '--workspace', project])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`the settings file ${file} has`)
    expect(result.stderr).toMatch(/did you mean "decision"\?/)
  })

  it('refuses a YAML alias bomb in a sentence', async () => {
    const bomb = path.join(dir, 'bomb.yaml')
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]']
    for (const [i, name] of ['b', 'c', 'd', 'e', 'f'].entries()) {
      const previous = String.fromCharCode(97 + i)
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`)
    }
    await writeFile(bomb, levels.join('\n'))
    const result = await mecatl(['tools', '--config', bomb])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/billion laughs/)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  it('says so when MECATL_HOME is a file', async () => {
    const file = path.join(dir, 'not-a-folder')
    await writeFile(file, '')
    const result = await runCliInProcess(['tools'], { home: file })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`MECATL_HOME (${file}) is a file, not a folder`)
  })

  it('serve is the app: it starts, says what is wrong, and the window shows it', async () => {
    // The one command here run as its own process: serve runs until it is stopped.
    ensureCliBuilt()
    const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', '--config', broken], {
      env: { PATH: process.env.PATH, MECATL_HOME: home }
    })
    let out = ''
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk
        if (out.includes('Mecatl browser mode: http://127.0.0.1:')) resolve()
      })
      child.once('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${err}`)))
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
    expect(err).toContain(`the settings file ${broken} has 2 problems`)
    expect(err).toContain('The window shows these until they are fixed.')
  })
})
