import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { fakeJsonService } from '../../../testing/fake-search-backends'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import { makeTempDir, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import { namedToolServer } from '../../../testing/mcp-test-servers'
import type { LocalServer } from '../../../testing/web-test-server'

// The switches the documentation names, run with the built CLI as a person would.
let dir: string
let home: string
let workspace: string
let fake: FakeModelServer
const servers: LocalServer[] = []

function mecatl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCliInProcess(args, { home, cwd: workspace, env })
}

/** A settings file in `dir` with these contents; its path, for --config. */
async function config(name: string, settings: Record<string, unknown>): Promise<string> {
  const file = path.join(dir, `${name}.yaml`)
  await writeFile(file, YAML.stringify(settings))
  return file
}

const model = (): string[] => ['--base-url', fake.openaiBaseUrl, '--model', 'fake-model']

/** What the model was sent as the person's message in the last run. */
function sentPrompt(): string {
  const request = fake.chatRequests().at(-1)
  return request?.messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
}

beforeAll(async () => {
  dir = await makeTempDir('cli-switches')
  home = path.join(dir, 'home')
  workspace = path.join(dir, 'project')
  await mkdir(home)
  await mkdir(path.join(workspace, '.mecatl', 'commands'), { recursive: true })
  await writeFile(
    path.join(workspace, '.mecatl', 'commands', 'greet.md'),
    'Say hello to $ARGUMENTS\n'
  )
  fake = await startFakeModelServer()
}, 120_000)
afterAll(async () => {
  await fake?.close()
  for (const server of servers) await server.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('--shell', () => {
  it('--shell "" leaves Shell and ShellStatus out, as --no-shell does; any other value is refused', async () => {
    const names = async (...flags: string[]): Promise<string[]> =>
      (JSON.parse((await mecatl(['tools', '--json', ...flags])).stdout) as { name: string }[]).map(
        (t) => t.name
      )
    expect(await names()).toEqual(expect.arrayContaining(['Shell', 'ShellStatus']))
    for (const flags of [['--shell', ''], ['--shell='], ['--no-shell']]) {
      const listed = await names(...flags)
      expect(listed, flags.join(' ')).not.toContain('Shell')
      expect(listed, flags.join(' ')).not.toContain('ShellStatus')
      expect(listed).toContain('Read')
    }
    const zsh = await mecatl(['tools', '--shell', '/bin/zsh'])
    expect(zsh.code).toBe(2)
    expect(zsh.stderr).toContain('--shell takes only ""')
  })
})

describe('plain mecatl tools', () => {
  it('prints each tool with its one-line description, and whether Shell is confined', async () => {
    const result = await mecatl(['tools'])
    expect(result.code).toBe(0)
    const lines = result.stdout.trim().split('\n')
    const read = lines.find((line) => line.startsWith('Read '))
    expect(read).toMatch(/^Read +read-only, private +builtin +\S.+/)
    // Delegation is read-only or not by what each call gives its children (see readOnlyFor).
    expect(lines.find((line) => line.startsWith('Subagent '))).toMatch(
      /^Subagent +read-only or mutating by call/
    )
    expect(lines.find((line) => line.startsWith('Write '))).toMatch(/^Write +mutating/)
    // One line each: no description spills onto a line of its own.
    const listed = lines.filter((line) => /^[A-Z][A-Za-z]+ +(read-only|mutating)/.test(line))
    expect(listed.length).toBe(lines.length - 1)
    expect(lines.at(-1)).toBe('Shell: confined (bubblewrap), network off')
    const off = await mecatl(['tools', '--no-shell'])
    expect(off.stdout.trim().split('\n').at(-1)).toBe(
      'Shell: off (--no-shell, --shell "" or shell.enabled: false)'
    )
  })
})

describe('MECATL_LOG=debug', () => {
  it('shows what MCP servers write on stderr, each line tagged with the server’s name', async () => {
    const settings = await config('logging', { mcp: [namedToolServer('notes', 'lookup_note')] })
    const quiet = await mecatl(['tools', '--json', '--config', settings])
    expect(quiet.code).toBe(0)
    expect(quiet.stderr).not.toContain('named-tool server offering')
    const loud = await mecatl(['tools', '--json', '--config', settings], { MECATL_LOG: 'debug' })
    expect(loud.code).toBe(0)
    expect(loud.stderr).toContain('[mcp notes] named-tool server offering lookup_note\n')
    // A server's escapes are shown, never sent to the terminal.
    expect(loud.stderr).toContain('[mcp notes] colour \\x1b[31mred\\x1b[0m and a bell \\x07 end\n')
    expect(loud.stderr).not.toContain('\u001b')
    // stdout stays the JSON it was.
    expect(JSON.parse(loud.stdout)).toEqual(JSON.parse(quiet.stdout))
  })
})

describe('a prefix_tools: false server whose tool takes a name already registered', () => {
  it('makes tools, call, run and serve exit non-zero, naming the collision', async () => {
    const settings = await config('collision', {
      mcp: [namedToolServer('shadow', 'Read', { prefix_tools: false })]
    })
    const before = fake.chatRequests().length
    const runs: [string, string[]][] = [
      ['tools', ['tools', '--config', settings]],
      ['call', ['call', 'Read', '{"path":"x"}', '--workspace', workspace, '--config', settings]],
      ['run', ['run', 'hi', '--workspace', workspace, '--config', settings, ...model()]],
      ['serve', ['serve', '--workspace', workspace, '--port', '0', '--config', settings]]
    ]
    for (const [command, args] of runs) {
      const result = await mecatl(args)
      expect(result.code, command).toBe(2)
      expect(result.stderr, command).toContain(
        'MCP server "shadow" has prefix_tools: false, and its tool "Read" has the name of the built-in tool Read'
      )
      expect(result.stdout, command).not.toContain('Mecatl browser mode')
    }
    // The run stopped before its turn: the model was never asked.
    expect(fake.chatRequests().length).toBe(before)
  })
})

describe('--websearch-url', () => {
  it('searches a JSON service given on the command line, its query as a form parameter', async () => {
    const service = await fakeJsonService({
      hits: [{ title: 'Tides', url: 'https://example.org/tides', snippet: 'twice a day' }]
    })
    servers.push(service)
    const result = await mecatl(
      [
        'call',
        'WebSearch',
        '{"query":"why two tides"}',
        '--workspace',
        workspace,
        '--websearch-url',
        `${service.origin}/find`,
        '--websearch-method',
        'post',
        '--websearch-query-param',
        'term',
        '--websearch-auth-header',
        'X-Api-Key'
      ],
      { WEBSEARCH_API_KEY: 'service-key' }
    )
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('https://example.org/tides')
    expect(result.stdout).toContain(`from http (${service.origin}/find)`)
    expect(
      service.requests.map((r) => [r.method, r.form.get('term'), r.headers['x-api-key']])
    ).toEqual([['POST', 'why two tides', 'service-key']])
  })

  it('refuses flags that cannot work, before anything runs', async () => {
    const cases: [string[], NodeJS.ProcessEnv, string][] = [
      [['--websearch-auth-header', 'X-Key'], {}, 'give --websearch-url URL as well'],
      [
        ['--websearch-url', 'http://127.0.0.1:9/', '--websearch-auth-header', 'X-Key'],
        {},
        'WEBSEARCH_API_KEY, which is not set'
      ],
      [['--websearch-url', 'http://127.0.0.1:9/', '--websearch=off'], {}, 'contradict each other'],
      [['--websearch-url', 'http://127.0.0.1:9/', '--websearch-method', 'put'], {}, 'get or post'],
      [['--websearch-url', 'file:///etc/passwd'], {}, 'http:// or https://'],
      [
        ['--websearch-url', 'http://127.0.0.1:9/', '--websearch-auth-header', 'X Key'],
        { WEBSEARCH_API_KEY: 'k' },
        'a header name'
      ]
    ]
    for (const [flags, env, message] of cases) {
      const result = await mecatl(['tools', ...flags], env)
      expect(result.code, flags.join(' ')).toBe(2)
      expect(result.stderr, flags.join(' ')).toContain(message)
    }
  })
})

describe('--no-commands, --commands-dir and --skills-dir', () => {
  it('expands a command of --commands-dir, and none at all with --no-commands', async () => {
    const extra = path.join(dir, 'operator-commands')
    await mkdir(extra)
    await writeFile(path.join(extra, 'brief.md'), 'Summarise $ARGUMENTS in one line\n')
    // The operator's folder wins a name clash with the project's.
    await writeFile(path.join(extra, 'greet.md'), 'Greet $ARGUMENTS formally\n')
    fake.setScript([{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }, { text: 'ok' }])
    const runs: [string[], string][] = [
      [['/greet Ada'], 'Say hello to Ada'],
      [['/brief the README', '--commands-dir', extra], 'Summarise the README in one line'],
      [['/greet Ada', '--commands-dir', extra], 'Greet Ada formally'],
      [['/greet Ada', '--no-commands'], '/greet Ada']
    ]
    for (const [[prompt, ...flags], sent] of runs) {
      const result = await mecatl([
        'run',
        prompt ?? '',
        '--workspace',
        workspace,
        ...model(),
        ...flags
      ])
      expect(result.code, flags.join(' ')).toBe(0)
      expect(sentPrompt(), flags.join(' ')).toBe(sent)
    }
  })

  it('loads a skill from --skills-dir, which wins over the project’s of the same name', async () => {
    const operator = path.join(dir, 'operator-skills')
    await mkdir(path.join(operator, 'deploy'), { recursive: true })
    await writeFile(
      path.join(operator, 'deploy', 'SKILL.md'),
      '---\nname: deploy\ndescription: How this deployment ships\n---\nShip with the operator runbook.\n'
    )
    await mkdir(path.join(workspace, '.mecatl', 'skills', 'deploy'), { recursive: true })
    await writeFile(
      path.join(workspace, '.mecatl', 'skills', 'deploy', 'SKILL.md'),
      '---\nname: deploy\ndescription: The project’s way\n---\nShip with the project script.\n'
    )
    const call = (...flags: string[]): Promise<CliResult> =>
      mecatl(['call', 'Skill', '{"name":"deploy"}', '--workspace', workspace, ...flags])
    expect((await call()).stdout).toContain('Ship with the project script.')
    const operated = await call('--skills-dir', operator)
    expect(operated.code).toBe(0)
    expect(operated.stdout).toContain('Ship with the operator runbook.')
  })

  it('refuses contradictions and folders that are not there', async () => {
    const cases: [string[], string][] = [
      [['--no-commands', '--commands-dir', dir], 'contradict each other'],
      [['--no-skills', '--skills-dir', dir], 'contradict each other'],
      [['--skills-dir', path.join(dir, 'nowhere')], 'is not a folder'],
      [['--commands-dir', path.join(dir, 'nowhere')], 'is not a folder']
    ]
    for (const [flags, message] of cases) {
      const result = await mecatl(['tools', ...flags])
      expect(result.code, flags.join(' ')).toBe(2)
      expect(result.stderr, flags.join(' ')).toContain(message)
    }
  })
})
