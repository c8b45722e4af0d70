import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { ExitMarker } from './exit-marker'

/** Runs the marker's script with bash (no terminal: the report then goes nowhere) for syntax. */
function bashRuns(script: string): string {
  return execFileSync('/bin/bash', ['-n', '-c', script], { encoding: 'utf8' })
}

describe('ExitMarker', () => {
  it('wraps a command in a script bash accepts, whatever quotes the command uses', () => {
    const marker = new ExitMarker()
    expect(() => bashRuns(marker.script(`echo "it's" 'a "test"'; exit 3`))).not.toThrow()
  })

  it('takes the marker out of the output and finds the exit code, however it is split', () => {
    const nonce = 'a1b2c3d4e5f6'
    const printed = markerOutput(new ExitMarker(nonce), 42)
    const output = Buffer.concat([Buffer.from('last line \x1b[0m\r\n'), printed.bytes])
    for (const size of [1, 2, 5, 7, 64]) {
      const marker = new ExitMarker(nonce)
      const passed: Buffer[] = []
      for (let i = 0; i < output.length; i += size) {
        passed.push(marker.filter(output.subarray(i, i + size)))
      }
      passed.push(marker.flush())
      expect(Buffer.concat(passed).toString(), `chunks of ${size}`).toBe('last line \x1b[0m\r\n')
      expect(marker.exitCode).toBe(42)
    }
  })

  it('passes on escape sequences that only look like its start', () => {
    const marker = new ExitMarker()
    const text = 'a\x1b]0;title\x07b\x1b]7770;other;1\x07c\x1b'
    const passed = Buffer.concat([marker.filter(Buffer.from(text)), marker.flush()]).toString()
    expect(passed).toBe(text)
    expect(marker.exitCode).toBeNull()
  })

  it('is not fooled by another marker’s nonce', () => {
    const other = markerOutput(new ExitMarker(), 0)
    const mine = new ExitMarker()
    expect(mine.filter(other.bytes).equals(other.bytes)).toBe(true)
    expect(mine.exitCode).toBeNull()
  })
})

/** What the marker's trap prints for `code`, by running its printf in bash. */
function markerOutput(marker: ExitMarker, code: number): { bytes: Buffer } {
  const printf = /printf ("[^"]+") "\$\?"/.exec(marker.script('true'))?.[1] ?? ''
  return { bytes: execFileSync('/bin/bash', ['-c', `(exit ${code}); printf ${printf} "$?"`]) }
}
