// An MCP tool whose input schema cannot be read (a schema that is itself, one 10,000 levels
// deep) costs that tool its calls, never the command, the turn or the server's other tools.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { makeTempDir, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import type { McpServerSettingsInput } from '../../shared/mcp'

/** A real server whose tools' schemas are hard to read (see odd-schema-mcp-server.mjs). */
const oddSchemaServer: McpServerSettingsInput = {
  name: 'odd',
  command: process.execPath,
  args: [path.resolve(__dirname, '../../../testing/odd-schema-mcp-server.mjs'), '10000']
}

let dir: string
let home: string
let workspace: string
let fake: FakeModelServer

function mecatl(args: string[]): Promise<CliResult> {
  return runCliInProcess([...args, '--workspace', workspace], { home, cwd: workspace })
}

function printed(result: CliResult): { isError: boolean; content: { text: string }[] } {
  return JSON.parse(result.stdout) as { isError: boolean; content: { text: string }[] }
}

beforeAll(async () => {
  dir = await makeTempDir('mcp-odd-schemas')
  home = path.join(dir, 'home')
  workspace = path.join(dir, 'project')
  await mkdir(home)
  await mkdir(workspace)
  await writeFile(path.join(home, 'settings.yaml'), YAML.stringify({ mcp: [oddSchemaServer] }))
  fake = await startFakeModelServer()
}, 60_000)
afterAll(async () => {
  await fake?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('MCP tools whose input schema cannot be read', () => {
  it('are listed with the server’s other tools', async () => {
    const result = await mecatl(['tools', '--json'])
    expect(result.code).toBe(0)
    const names = (JSON.parse(result.stdout) as { name: string }[]).map((t) => t.name)
    expect(names).toEqual(
      expect.arrayContaining(['mcp__odd__echo', 'mcp__odd__self_ref', 'mcp__odd__deep'])
    )
    const schemas = await mecatl(['tools', '--schema'])
    expect(schemas.code).toBe(0)
    expect(schemas.stdout).toContain('mcp__odd__self_ref')
  })

  it.each(['self_ref', 'deep'])(
    'a call to %s is an error result that says why; the command does not crash',
    async (tool) => {
      const result = await mecatl(['call', `mcp__odd__${tool}`, '{}', '--yes'])
      expect(result.stderr).not.toContain('unexpected failure')
      expect(result.code).toBe(1)
      const output = printed(result)
      expect(output.isError).toBe(true)
      expect(output.content[0]?.text).toMatch(/input schema .*cannot be (read|used)/)
      expect(output.content[0]?.text).toContain(`"${tool}"`)
    }
  )

  it('the tree, whose children refer back to the root, is an ordinary recursive schema', async () => {
    const input = JSON.stringify({ label: 'a', child: { label: 'b', child: { label: 'c' } } })
    const result = await mecatl(['call', 'mcp__odd__tree', input, '--yes'])
    expect(result.code).toBe(0)
    expect(printed(result).content[0]?.text).toBe('tree was called')
  })

  it('an input nested too deep for the tree’s schema is an error result, not a crash', async () => {
    const input = `${'{"child":'.repeat(20_000)}{}${'}'.repeat(20_000)}`
    const result = await mecatl(['call', 'mcp__odd__tree', input, '--yes'])
    expect(result.stderr).not.toContain('unexpected failure')
    expect(result.code).toBe(1)
    expect(printed(result).content[0]?.text).toContain('nested too deeply')
  })

  it('the server’s ordinary tool keeps working', async () => {
    const result = await mecatl(['call', 'mcp__odd__echo', '{"text":"hi"}', '--yes'])
    expect(result.code).toBe(0)
    expect(printed(result).content[0]?.text).toBe('echo: hi')
  })

  it('a turn whose model calls them ends normally, each call answered with its error', async () => {
    fake.setScript([
      {
        toolCalls: [
          { name: 'mcp__odd__self_ref', input: {} },
          { name: 'mcp__odd__deep', input: {} },
          { name: 'mcp__odd__echo', input: { text: 'still here' } }
        ]
      },
      { text: 'Done.' }
    ])
    const result = await mecatl([
      'run',
      'Use the odd tools',
      '--yes',
      '--base-url',
      fake.openaiBaseUrl,
      '--model',
      'fake-model'
    ])
    expect(result.stderr).not.toContain('error:')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Done.')
    const answers = fake.lastToolResults().map((r) => r.content)
    expect(answers).toHaveLength(3)
    expect(answers[0]).toMatch(/input schema .*cannot be (read|used)/)
    expect(answers[1]).toMatch(/input schema .*cannot be (read|used)/)
    expect(answers[2]).toContain('echo: still here')
  })
})
