import { describe, expect, it } from 'vitest'
import { FeatureList, type Feature } from './feature'

/** A promise and the function that settles it, so a test decides when a start finishes. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined
  const wait = new Promise<void>((resolve) => (open = resolve))
  return { wait, open }
}

describe('FeatureList', () => {
  it('starts the features of `together` at once, each seeing only what came before them', async () => {
    const log: string[] = []
    const settingsRead = gate()
    const settings: Feature<{ base: number }, { settings: string }> = {
      name: 'settings',
      async start(needs) {
        log.push(`settings starts, sees ${Object.keys(needs).sort().join(' ')}`)
        await settingsRead.wait
        log.push('settings started')
        return { provides: { settings: 'loaded' } }
      }
    }
    const store: Feature<{ base: number }, { store: string }> = {
      name: 'store',
      start(needs) {
        log.push(`store starts, sees ${Object.keys(needs).sort().join(' ')}`)
        // The settings are still being read: the store did not wait for them.
        settingsRead.open()
        return { provides: { store: 'open' } }
      }
    }
    const after: Feature<{ settings: string; store: string }, { both: string }> = {
      name: 'after',
      start: ({ settings: s, store: st }) => {
        log.push('after starts')
        return { provides: { both: `${s}+${st}` } }
      }
    }
    const { services } = await FeatureList.from({ base: 1 })
      .together(settings, store)
      .then(after)
      .start()
    expect(services.both).toBe('loaded+open')
    expect(log).toEqual([
      'settings starts, sees base',
      'store starts, sees base',
      'settings started',
      'after starts'
    ])
  })

  it('does not compile a feature of `together` that needs what a sibling provides', () => {
    const first: Feature<object, { first: number }> = {
      name: 'first',
      start: () => ({ provides: { first: 1 } })
    }
    const second: Feature<{ first: number }, { second: number }> = {
      name: 'second',
      start: ({ first: value }) => ({ provides: { second: value + 1 } })
    }
    // @ts-expect-error `second` needs `first`, which its sibling only provides once both started.
    expect(() => FeatureList.from({}).together(first, second)).not.toThrow()
    expect(() => FeatureList.from({}).then(first).then(second)).not.toThrow()
  })

  it('stops what started, siblings included and latest first, when one of a stage fails', async () => {
    const stopped: string[] = []
    const stoppable = (name: string): Feature<object, object> => ({
      name,
      start: () => ({ provides: {}, stop: () => void stopped.push(name) })
    })
    const broken: Feature<object, object> = {
      name: 'broken',
      start: async () => {
        await Promise.resolve()
        throw new Error('the database is damaged')
      }
    }
    const never: Feature<object, object> = {
      name: 'never',
      start: () => {
        throw new Error('a stage after a failed one must not start')
      }
    }
    const list = FeatureList.from({})
      .then(stoppable('first'))
      .together(stoppable('sibling'), broken, stoppable('other sibling'))
      .then(never)
    await expect(list.start()).rejects.toThrow('the database is damaged')
    expect(stopped).toEqual(['other sibling', 'sibling', 'first'])
  })

  it('refuses two features of one stage that provide the same name, and stops both', async () => {
    const stopped: string[] = []
    const providing = (name: string): Feature<object, { shared: string }> => ({
      name,
      start: () => ({ provides: { shared: name }, stop: () => void stopped.push(name) })
    })
    await expect(
      FeatureList.from({}).together(providing('a'), providing('b')).start()
    ).rejects.toThrow('b provides shared, which is already there')
    expect(stopped).toEqual(['b', 'a'])
  })

  it('stops everything in the reverse order of starting', async () => {
    const stopped: string[] = []
    const stoppable = (name: string): Feature<object, object> => ({
      name,
      start: () => ({ provides: {}, stop: () => void stopped.push(name) })
    })
    const { stop } = await FeatureList.from({})
      .then(stoppable('settings'))
      .together(stoppable('store'), stoppable('workspace'))
      .then(stoppable('sessions'))
      .start()
    await stop()
    expect(stopped).toEqual(['sessions', 'workspace', 'store', 'settings'])
  })
})
