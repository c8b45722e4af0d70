import { describe, expect, it } from 'vitest'
import type { McpStatus } from '../../../../shared/mcp'
import { paletteMatches, parseInvocation, promptEntries } from './slash-prompts'

const status: McpStatus = {
  workspace: '/p',
  projectFile: null,
  issues: [],
  servers: [
    {
      name: 'everything',
      origin: 'user',
      command: 'node',
      args: [],
      url: null,
      transport: 'stdio',
      headerNames: [],
      auth: 'none',
      oauth: null,
      envNames: [],
      enabled: true,
      sandbox: false,
      state: 'ready',
      error: null,
      pid: 1,
      restarts: 0,
      tools: [],
      toolNames: {},
      offTools: [],
      resources: [],
      logCount: 0,
      prompts: [
        { name: 'simple-prompt', title: null, description: 'No arguments', arguments: [] },
        {
          name: 'args-prompt',
          title: null,
          description: 'Two arguments',
          arguments: [
            { name: 'city', description: null, required: true },
            { name: 'state', description: null, required: false }
          ]
        },
        {
          name: 'summarize',
          title: null,
          description: null,
          arguments: [{ name: 'text', description: null, required: true }]
        }
      ]
    },
    {
      name: 'down',
      origin: 'user',
      command: 'x',
      args: [],
      url: null,
      transport: 'stdio',
      headerNames: [],
      auth: 'none',
      oauth: null,
      envNames: [],
      enabled: true,
      sandbox: false,
      state: 'failed',
      error: 'gone',
      pid: null,
      restarts: 0,
      tools: [],
      toolNames: {},
      offTools: [],
      resources: [],
      logCount: 0,
      prompts: [{ name: 'p', title: null, description: null, arguments: [] }]
    }
  ]
}

const entries = promptEntries(status)

describe('slash prompts', () => {
  it('offers the prompts of ready servers as /mcp__server__prompt, sorted', () => {
    expect(entries.map((e) => e.command)).toEqual([
      '/mcp__everything__args-prompt',
      '/mcp__everything__simple-prompt',
      '/mcp__everything__summarize'
    ])
  })

  it('lists matches while the command name is typed, and none once arguments begin', () => {
    expect(paletteMatches('/', entries)).toHaveLength(3)
    expect(paletteMatches('/mcp__everything__s', entries).map((e) => e.prompt)).toEqual([
      'simple-prompt',
      'summarize'
    ])
    expect(paletteMatches('/simple', entries).map((e) => e.prompt)).toEqual(['simple-prompt'])
    expect(paletteMatches('/mcp__everything__args-prompt city=x', entries)).toEqual([])
    expect(paletteMatches('hello /', entries)).toEqual([])
  })

  it('reads arguments as name=value, quoted when they hold spaces', () => {
    expect(
      parseInvocation('/mcp__everything__args-prompt city=Oaxaca state="Nuevo León"', entries)
    ).toMatchObject({ ok: true, args: { city: 'Oaxaca', state: 'Nuevo León' } })
    expect(parseInvocation('/mcp__everything__summarize the whole line', entries)).toMatchObject({
      ok: true,
      args: { text: 'the whole line' }
    })
  })

  it('says which required argument is missing, and how to give it', () => {
    const parsed = parseInvocation('/mcp__everything__args-prompt state=x', entries)
    expect(parsed).toMatchObject({ ok: false })
    expect(parsed && !parsed.ok && parsed.error).toBe(
      '/mcp__everything__args-prompt needs city: /mcp__everything__args-prompt city=… [state=…]'
    )
    expect(parseInvocation('/not-a-prompt', entries)).toBeNull()
  })
})
