import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { coreStopper, type StopOutcome } from '../core-stop'
import { waitForCoreOnQuit, type QuittingApp } from './quit-guard'

// Electron itself cannot run here (no binary, no display), so its `app` is stood in for by an
// emitter that behaves as Electron documents: a before-quit listener that calls preventDefault
// keeps the app running, and exit() ends it at once without another before-quit.
class StandInApp extends EventEmitter implements QuittingApp {
  exits: number[] = []
  quit(): boolean {
    let prevented = false
    this.emit('before-quit', { preventDefault: () => (prevented = true) })
    if (!prevented) this.exits.push(0)
    return !prevented
  }
  exit(code = 0): void {
    this.exits.push(code)
  }
}

function controlledStop(outcome: StopOutcome = { kind: 'stopped' }): {
  stop: () => Promise<StopOutcome>
  finish: () => void
  begun: () => number
} {
  let begun = 0
  let finish = (): void => undefined
  const done = new Promise<StopOutcome>((resolve) => (finish = () => resolve(outcome)))
  return {
    stop: () => {
      begun++
      return done
    },
    finish: () => finish(),
    begun: () => begun
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('quitting the desktop app', () => {
  it('waits for the core to stop, then exits; quitting again meanwhile starts nothing new', async () => {
    const app = new StandInApp()
    const stop = controlledStop()
    waitForCoreOnQuit(app, stop.stop, () => undefined)
    expect(app.quit()).toBe(false)
    expect(app.quit()).toBe(false)
    await settle()
    expect(app.exits).toEqual([])
    expect(stop.begun()).toBe(1)
    stop.finish()
    await settle()
    expect(app.exits).toEqual([0])
  })

  it('exits at the bound when the core does not stop, and says so', async () => {
    const app = new StandInApp()
    const said: string[] = []
    const hangs = coreStopper(() => new Promise<void>(() => undefined), 20)
    waitForCoreOnQuit(app, hangs, (line) => said.push(line))
    app.quit()
    for (let i = 0; i < 200 && app.exits.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(app.exits).toEqual([1])
    expect(said).toEqual([expect.stringMatching(/^Mecatl: stopping took longer than 20 ms/)])
  })

  it('exits with 1 and the reason when stopping failed', async () => {
    const app = new StandInApp()
    const said: string[] = []
    const stop = controlledStop({ kind: 'failed', error: new Error('disk I/O error') })
    waitForCoreOnQuit(app, stop.stop, (line) => said.push(line))
    app.quit()
    stop.finish()
    await settle()
    expect(app.exits).toEqual([1])
    expect(said).toEqual(['Mecatl: stopping failed: disk I/O error'])
  })
})
