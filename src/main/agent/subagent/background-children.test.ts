import { describe, expect, it } from 'vitest'
import type { ToolDisplay } from '../../../shared/domain'
import { noCapabilities, outputText } from '../../tools/tool'
import { BackgroundChildren, type BackgroundStart } from './background-children'

const spec = (work: BackgroundStart['work']): BackgroundStart => ({
  sessionId: 's1',
  callId: 'call-1',
  agent: 'Subagent',
  task: 'look',
  capabilities: { ...noCapabilities, privateData: true },
  work
})

describe('background children', () => {
  it('whose work throws end failed, with their card told so and the failure collected once', async () => {
    const cards: ToolDisplay[] = []
    const children = new BackgroundChildren((_s, _c, display) => cards.push(display))
    children.start(
      spec(async () => {
        throw new Error('the MCP servers of the folder could not be listed')
      })
    )
    const run = children.find('subagent-1')
    if (!run) throw new Error('not started')
    await run.finished
    expect(run.state).toBe('failed')
    expect(cards.at(-1)).toMatchObject({
      kind: 'subagent',
      status: 'failed',
      note: 'ran in the background as subagent-1'
    })
    const result = children.collect(run)
    expect(result?.output.isError).toBe(true)
    expect(outputText(result?.output.content ?? [])).toContain('could not be listed')
    // What it may have read is unknown, so it counts as what its tools could bring.
    expect(result?.taint).toEqual({ privateData: true, untrustedInput: false })
    expect(children.collect(run)).toBeNull()
  })

  it('keep running when their card cannot be shown', async () => {
    const children = new BackgroundChildren(() => {
      throw new Error('the session is gone')
    })
    children.start(
      spec(async (_signal, progress) => {
        progress({
          kind: 'subagent',
          agent: 'a',
          task: 't',
          status: 'running',
          steps: [],
          note: null
        })
        return {
          output: { content: [{ type: 'text', text: 'fine' }], isError: false, external: false },
          taint: { privateData: false, untrustedInput: false }
        }
      })
    )
    const run = children.find('subagent-1')
    await run?.finished
    expect(run?.state).toBe('done')
  })

  it('are all stopped by dispose, and none starts after it', async () => {
    const children = new BackgroundChildren()
    const stopped: string[] = []
    for (let i = 0; i < 3; i++) {
      children.start(
        spec(
          (signal) =>
            new Promise((resolve) =>
              signal.addEventListener('abort', () => {
                stopped.push(String(signal.reason))
                resolve({
                  output: { content: [], isError: true, external: false },
                  taint: { privateData: false, untrustedInput: false }
                })
              })
            )
        )
      )
    }
    await children.dispose()
    expect(stopped).toEqual(Array(3).fill('Error: the session ended'))
    expect(children.list('s1').map((r) => [r.state, r.stopReason])).toEqual(
      Array(3).fill(['cancelled', 'the session ended'])
    )
    const late = children.start(
      spec(async () => ({
        output: { content: [], isError: false, external: false },
        taint: { privateData: false, untrustedInput: false }
      }))
    )
    expect(late.isError).toBe(true)
    expect(children.list('s1')).toHaveLength(3)
  })
})
