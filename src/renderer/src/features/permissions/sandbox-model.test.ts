import { describe, expect, it } from 'vitest'
import {
  choice,
  homeDefaultsOn,
  linesOf,
  passthroughOf,
  pathProblem,
  projectPaths,
  sandboxOf,
  sandboxWarning,
  shellOf,
  withChoice,
  withHomeDefaults,
  withLines,
  withoutProjectPath,
  withPassthrough,
  withProjectPath
} from './sandbox-model'

describe('the sandbox entry as Settings edits it', () => {
  it('leaves defaults out of the file and keeps what it does not edit', () => {
    const base = { sandbox: { kind: 'none', writable: ['~/.cache'] } }
    const sandbox = sandboxOf(base)
    expect(choice(sandbox, 'kind')).toBe('none')
    expect(choice(sandbox, 'network')).toBe('')
    expect(withChoice(sandbox, 'kind', '')).toEqual({ writable: ['~/.cache'] })
    expect(withChoice(sandbox, 'network', 'on')).toMatchObject({ kind: 'none', network: 'on' })
    expect(sandboxOf({ sandbox: 'broken' })).toEqual({})
  })

  it('reads and writes lists one item a line, blank lines dropped', () => {
    const sandbox = { allowed_hosts: ['registry.npmjs.org', 'pypi.org'] }
    expect(linesOf(sandbox, 'allowed_hosts')).toBe('registry.npmjs.org\npypi.org')
    expect(withLines(sandbox, 'allowed_hosts', ' a.example \n\n b.example ')).toEqual({
      allowed_hosts: ['a.example', 'b.example']
    })
    expect(withLines(sandbox, 'allowed_hosts', '  \n')).toEqual({})
  })
})

describe('paths for one project only', () => {
  const here = '/home/ana/app'

  it('adds a path under the project’s own key and keeps every other key and project', () => {
    const sandbox = {
      network: 'off',
      projects: { '/home/ana/other': { writable: ['/srv/cache'] } }
    }
    const next = withProjectPath(sandbox, here, 'readable', '  ~/datasets ')
    expect(next).toEqual({
      network: 'off',
      projects: {
        '/home/ana/other': { writable: ['/srv/cache'] },
        [here]: { readable: ['~/datasets'] }
      }
    })
    expect(projectPaths(next, here)).toEqual({ readable: ['~/datasets'], writable: [] })
    expect(projectPaths(next, '/elsewhere')).toEqual({ readable: [], writable: [] })
    expect(sandbox.projects).toEqual({ '/home/ana/other': { writable: ['/srv/cache'] } })
  })

  it('lists a path once, and refuses one that is not a whole path', () => {
    const once = withProjectPath({}, here, 'writable', '/data/out')
    expect(withProjectPath(once, here, 'writable', '/data/out')).toBe(once)
    expect(withProjectPath(once, here, 'readable', 'data/in')).toBe(once)
    expect(withProjectPath(once, here, 'readable', '   ')).toBe(once)
    expect(pathProblem('')).toBe('Type the path to add.')
    expect(pathProblem('data/in')).toMatch(/starting with \/ or with ~\//)
    expect(pathProblem('~')).toBe(null)
    expect(pathProblem('~/notes')).toBe(null)
    expect(pathProblem('/srv/data')).toBe(null)
  })

  it('removes a path, and the project and `projects` leave the file once empty', () => {
    const both = withProjectPath(
      withProjectPath({ kind: 'bwrap' }, here, 'readable', '~/notes'),
      here,
      'writable',
      '/data/out'
    )
    const one = withoutProjectPath(both, here, 'readable', '~/notes')
    expect(one).toEqual({ kind: 'bwrap', projects: { [here]: { writable: ['/data/out'] } } })
    expect(withoutProjectPath(one, here, 'writable', '/data/out')).toEqual({ kind: 'bwrap' })
  })

  it('ignores a projects entry the file holds in the wrong shape', () => {
    expect(projectPaths({ projects: 'broken' }, here)).toEqual({ readable: [], writable: [] })
    expect(projectPaths({ projects: { [here]: { readable: [1, '~/a'] } } }, here)).toEqual({
      readable: ['~/a'],
      writable: []
    })
  })
})

describe('the home directory’s defaults switch', () => {
  it('is on unless the file says false, and on leaves the file', () => {
    expect(homeDefaultsOn({})).toBe(true)
    expect(homeDefaultsOn({ home_defaults: false })).toBe(false)
    expect(withHomeDefaults({ network: 'on' }, false)).toEqual({
      network: 'on',
      home_defaults: false
    })
    expect(withHomeDefaults({ home_defaults: false }, true)).toEqual({})
  })
})

describe('the variables commands get', () => {
  it('reads and writes shell.env_passthrough beside shell.enabled', () => {
    const shell = shellOf({ shell: { enabled: false, env_passthrough: ['GOPATH'] } })
    expect(passthroughOf(shell)).toEqual(['GOPATH'])
    expect(withPassthrough(shell, 'GOPATH\n JAVA_HOME, GOPATH  CARGO_HOME\n')).toEqual({
      enabled: false,
      env_passthrough: ['GOPATH', 'JAVA_HOME', 'CARGO_HOME']
    })
    expect(withPassthrough(shell, ' \n')).toEqual({ enabled: false })
    expect(shellOf({ shell: ['broken'] })).toEqual({})
    expect(passthroughOf({ env_passthrough: 'GOPATH' })).toEqual([])
  })
})

describe('the badge’s sandbox warning', () => {
  it('warns when Shell is not confined or refused, and says nothing when it is', () => {
    expect(sandboxWarning({ state: 'confined', text: 'confined (bubblewrap), network off' })).toBe(
      null
    )
    expect(sandboxWarning({ state: 'checking', text: '' })).toBe(null)
    expect(sandboxWarning(null)).toBe(null)
    expect(
      sandboxWarning({ state: 'unconfined', text: 'not confined (sandbox.kind is none)' })
    ).toBe('Shell not confined')
    expect(sandboxWarning({ state: 'refused', text: 'refused: …' })).toBe(
      'Shell refused: sandbox broken'
    )
  })
})
