import { describe, expect, it } from 'vitest'
import { parseCliArgs } from './args'

// The core's own tests show what each switch removes; these show the CLI flag that sets it.
describe('the flags that leave tools out', () => {
  it('--no-shell, --no-skills and --no-user-model are off unless given', () => {
    expect(parseCliArgs(['serve', '--no-shell']).noShell).toBe(true)
    expect(parseCliArgs(['serve']).noShell).toBe(false)
    expect(parseCliArgs(['tools', '--no-skills']).noSkills).toBe(true)
    expect(parseCliArgs(['tools']).noSkills).toBe(false)
    expect(parseCliArgs(['run', 'hi', '--no-user-model']).noUserModel).toBe(true)
    expect(parseCliArgs(['run', 'hi']).noUserModel).toBe(false)
  })

  it('--websearch takes on or off and nothing else', () => {
    expect(parseCliArgs(['tools', '--websearch=off']).noWebsearch).toBe(true)
    expect(parseCliArgs(['tools', '--websearch=on']).noWebsearch).toBe(false)
    expect(parseCliArgs(['tools']).noWebsearch).toBe(false)
    expect(() => parseCliArgs(['tools', '--websearch=maybe'])).toThrow('on or off')
  })
})
