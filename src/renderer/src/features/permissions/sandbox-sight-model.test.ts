import { describe, expect, it } from 'vitest'
import type { SandboxView } from '../../../../shared/sandbox'
import {
  homeDefaultsSplit,
  networkReach,
  rootNote,
  sightIntro,
  socketsReach,
  variableWarnings
} from './sandbox-sight-model'

const view: SandboxView = {
  state: 'confined',
  text: 'confined (bubblewrap), network off',
  asRoot: false,
  system: ['/etc', '/usr'],
  hiddenForRoot: 0,
  home: '/home/ana',
  homeDefaults: [
    { path: '~/.gitconfig', why: 'git settings', present: true, filtered: true },
    { path: '~/.nvm', why: 'Node.js versions (nvm)', present: false, filtered: false }
  ],
  workspace: '/home/ana/app',
  gitReadOnly: ['/home/ana/app/.git'],
  readable: [],
  writable: [],
  project: null,
  sockets: [],
  unixSockets: false,
  network: 'off',
  env: { fixed: ['PATH', 'HOME'], listed: [], never: ['ANTHROPIC_API_KEY'] }
}

describe('what a command can see, in words', () => {
  it('says what runs as root only when Mecatl does, with how many files are hidden', () => {
    expect(rootNote(view)).toBe(null)
    const root = rootNote({ ...view, asRoot: true, hiddenForRoot: 12 })
    expect(root).toMatch(/^Mecatl runs as root here\. Commands still run with no special powers/)
    expect(root).toContain('the 12 files in these folders that only root may read are hidden')
    expect(rootNote({ ...view, asRoot: true, hiddenForRoot: 1 })).toContain('the 1 file ')
    expect(rootNote({ ...view, asRoot: true })).toContain('files in these folders that only root')
  })

  it('says whether the wall stands now, and warns when it does not', () => {
    expect(sightIntro('confined')).toMatchObject({ warn: false })
    expect(sightIntro('checking')).toMatchObject({ warn: false })
    expect(sightIntro('unconfined')).toMatchObject({ warn: true })
    expect(sightIntro('unconfined').text).toMatch(
      /not confined now: they see and change everything/
    )
    expect(sightIntro('refused').text).toMatch(/^Commands are refused until the sandbox works/)
  })

  it('splits the home directory’s defaults into those here and those not on this machine', () => {
    const { here, elsewhere } = homeDefaultsSplit(view)
    expect(here.map((e) => e.path)).toEqual(['~/.gitconfig'])
    expect(elsewhere.map((e) => e.path)).toEqual(['~/.nvm'])
  })

  it('marks the network and sockets by how far they open the wall', () => {
    expect(networkReach('off').tone).toBe('safe')
    expect(networkReach('allowlist').tone).toBe('open')
    expect(networkReach('on')).toMatchObject({ badge: 'anywhere', tone: 'wide' })
    expect(socketsReach(view)).toMatchObject({ badge: 'none', tone: 'safe' })
    expect(socketsReach({ ...view, unixSockets: true })?.badge).toBe('Mecatl’s only')
    const listed = { ...view, sockets: [{ entry: '$SSH_AUTH_SOCK', path: null }] }
    expect(socketsReach(listed)).toBe(null)
  })
})

describe('warnings about the variables a person lets through', () => {
  it('warns of a key Mecatl uses and of a name that looks secret, and of nothing else', () => {
    const warnings = variableWarnings(
      ['JAVA_HOME', 'GITHUB_TOKEN', 'ANTHROPIC_API_KEY', 'DB_PASSWORD'],
      view.env.never
    )
    expect(warnings.map((w) => w.name)).toEqual([
      'GITHUB_TOKEN',
      'ANTHROPIC_API_KEY',
      'DB_PASSWORD'
    ])
    expect(warnings[0]?.text).toMatch(/looks like a secret/)
    expect(warnings[1]?.text).toMatch(/a key Mecatl itself uses, so commands never get it/)
  })
})
