// @vitest-environment happy-dom
import { act, type JSX } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { clearPage, show } from '../../../../testing/dom/live-dom'
import { lazyPart } from './lazy-part'

afterEach(() => {
  clearPage()
  vi.restoreAllMocks()
})

interface Props {
  name: string
}

const Loading = ({ name }: Props): JSX.Element => <p>loading {name}</p>
const Failed = ({ name }: Props): JSX.Element => <p>no {name}</p>
const Real = ({ name }: Props): JSX.Element => <p>real {name}</p>

/** A load the test settles by hand, counting how often it was started. */
function controlledLoad(): {
  load: () => Promise<(props: Props) => JSX.Element>
  starts: () => number
  settle: (outcome: 'ok' | 'fail') => Promise<void>
} {
  let started = 0
  let resolve: (component: (props: Props) => JSX.Element) => void = () => {}
  let reject: (error: Error) => void = () => {}
  const promise = new Promise<(props: Props) => JSX.Element>((res, rej) => {
    resolve = res
    reject = rej
  })
  return {
    load: () => {
      started++
      return promise
    },
    starts: () => started,
    settle: async (outcome) => {
      await act(async () => {
        if (outcome === 'ok') resolve(Real)
        else reject(new Error('chunk gone'))
        await promise.catch(() => undefined)
      })
    }
  }
}

const text = (): string => document.body.textContent ?? ''

describe('lazyPart', () => {
  it('shows its stand-in, loads once on first render, then the part in its place', async () => {
    const chunk = controlledLoad()
    const Part = lazyPart(chunk.load, { loading: Loading, failed: Failed })
    expect(chunk.starts()).toBe(0)
    show(
      <>
        <Part name="a" />
        <Part name="b" />
      </>
    )
    expect(text()).toBe('loading aloading b')
    expect(chunk.starts()).toBe(1)
    await chunk.settle('ok')
    expect(text()).toBe('real areal b')
  })

  it('renders at once, with no stand-in, once its code has arrived', async () => {
    const chunk = controlledLoad()
    const Part = lazyPart(chunk.load, { loading: Loading, failed: Failed })
    const loaded = Part.load()
    await chunk.settle('ok')
    await loaded
    show(<Part name="c" />)
    // React.lazy would show its fallback here first; a window opening must not.
    expect(text()).toBe('real c')
    expect(chunk.starts()).toBe(1)
  })

  it('says so in its place when the chunk cannot be loaded, and does not throw', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const chunk = controlledLoad()
    const Part = lazyPart(chunk.load, { loading: Loading, failed: Failed })
    show(<Part name="d" />)
    await chunk.settle('fail')
    expect(text()).toBe('no d')
    expect(errors).toHaveBeenCalledWith(
      'A part of the window could not be loaded:',
      expect.any(Error)
    )
    // Load resolves (not rejects) for those who wait on it, such as the Settings page's loader.
    await expect(Part.load()).resolves.toBeUndefined()
  })
})
