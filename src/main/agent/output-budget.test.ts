import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolOutput } from '../../shared/domain'
import { outputText, textOutput } from '../tools/tool'
import { SpillStore } from '../workspace/spill'
import { cutOutput, cutText, shareBudget, textBytes } from './output-budget'

describe('shareBudget', () => {
  it('gives every result an equal share when all are large', () => {
    expect(shareBudget([5000, 9000, 7000], 3000)).toEqual([1000, 1000, 1000])
  })

  it('gives small results all they need and the rest to the larger ones, equally', () => {
    expect(shareBudget([100, 50_000, 200, 80_000], 10_000)).toEqual([100, 4850, 200, 4850])
  })

  it('lets a result use what a smaller sibling leaves of its share', () => {
    // 3 results of 10,000: equal shares of 3,333; the 1,000 one leaves 2,333 for the others.
    expect(shareBudget([1000, 4000, 50_000], 10_000)).toEqual([1000, 4000, 5000])
  })

  it('cuts nothing when everything fits, and never hands out more than the budget', () => {
    expect(shareBudget([10, 20, 30], 1000)).toEqual([10, 20, 30])
    const shares = shareBudget([999, 1001, 5000, 7], 4001)
    expect(shares.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(4001)
  })
})

describe('cutText', () => {
  const text = 'alpha\nbeta\ngamma\n'

  it('cuts after the last whole line that fits', () => {
    expect(cutText(text, 12)).toEqual({ shown: 'alpha\nbeta', lines: 2, midLine: false })
    expect(cutText(text, 10)).toEqual({ shown: 'alpha', lines: 1, midLine: false })
  })

  it('counts an empty line that fits as shown', () => {
    expect(cutText('a\n\nccc\n', 3)).toEqual({ shown: 'a\n', lines: 2, midLine: false })
  })

  it('shows part of the first line when no whole line fits, never half a character', () => {
    expect(cutText('ééééé\nnext\n', 5)).toEqual({ shown: 'éé', lines: 0, midLine: true })
  })

  it('leaves a text that fits as it is', () => {
    expect(cutText(text, 100)).toEqual({ shown: text, lines: 3, midLine: false })
  })
})

describe('cutOutput', () => {
  let base: string
  let spill: SpillStore
  const lines = Array.from({ length: 400 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`)
  const big = lines.join('\n') + '\n'
  const total = Buffer.byteLength(big)

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-cut-')))
    spill = new SpillStore(path.join(base, 'spill', 's1'))
  })
  afterEach(async () => {
    await rm(base, { recursive: true, force: true })
  })

  it('saves the whole output and cuts the copy, marker included, to the share', async () => {
    const cut = await cutOutput(textOutput(big), 3000, 'call_7', spill)
    const file = path.join(spill.dir, 'call_7.txt')
    expect(await readFile(file, 'utf8')).toBe(big)
    expect(textBytes(cut)).toBeLessThanOrEqual(3000)
    const [shown, marker] = cut.content.map((b) => (b.type === 'text' ? b.text : ''))
    expect(cut.spill?.kind).toBe('saved')
    if (cut.spill?.kind !== 'saved') return
    const next = cut.spill.continueAtLine
    expect(shown).toBe(lines.slice(0, next - 1).join('\n'))
    expect(cut.spill).toEqual({
      kind: 'saved',
      path: file,
      shownBytes: Buffer.byteLength(shown ?? ''),
      totalBytes: Buffer.byteLength(big),
      continueAtLine: next
    })
    expect(marker).toBe(
      `[Output cut to fit this turn's tool output budget: showing ${cut.spill.shownBytes.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} bytes (lines 1-${next - 1} of 400). ` +
        `The whole output is saved in ${file}; the rest begins at line ${next}. ` +
        `To continue, Read that file with offset ${next}, or Grep it for what you need.]`
    )
  })

  it('admits the loss and names no file when saving fails', async () => {
    await mkdir(path.join(base, 'spill'))
    // A file where the session's directory should be: mkdir fails for real.
    await writeFile(spill.dir, 'in the way')
    const cut = await cutOutput(textOutput(big), 3000, 'call_7', spill)
    expect(textBytes(cut)).toBeLessThanOrEqual(3000)
    const marker = outputText(cut.content).split('\n').at(-1) ?? ''
    expect(marker).toMatch(
      /^\[Output cut to fit this turn's tool output budget: showing [\d,]+ of 19,892 bytes \(lines 1-\d+ of 400\)\. The rest could not be saved \(.*EEXIST.*\), so it is lost: re-run the tool with a narrower request \(a smaller range, a tighter pattern\) to see it\.\]$/
    )
    expect(marker).not.toContain(spill.dir + path.sep)
    expect(cut.spill).toMatchObject({ kind: 'lost', totalBytes: total })
  })

  it('points to Grep when not even one line fits', async () => {
    const oneLine = 'y'.repeat(5000)
    const cut = await cutOutput(textOutput(oneLine), 1000, 'c', spill)
    expect(textBytes(cut)).toBeLessThanOrEqual(1000)
    const text = outputText(cut.content)
    expect(text.startsWith('y')).toBe(true)
    expect(text).toContain('which end partway through line 1 of 1')
    expect(text).toContain('Grep that file for what you need')
    expect(cut.spill).toMatchObject({ kind: 'saved', continueAtLine: 1 })
  })

  it('keeps the images and the error flag of the output it cuts', async () => {
    const output: ToolOutput = {
      content: [
        { type: 'text', text: big },
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }
      ],
      isError: true,
      external: true
    }
    const cut = await cutOutput(output, 2000, 'c', spill)
    expect(cut.isError).toBe(true)
    expect(cut.external).toBe(true)
    expect(cut.content.filter((b) => b.type === 'image')).toHaveLength(1)
  })
})
