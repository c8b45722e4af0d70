import { describe, expect, it } from 'vitest'
import {
  JOB_MARKER_VAR,
  markersInEnviron,
  markerValue,
  newJobToken,
  parseMarker,
  selfOwner
} from './job-marker'
import { readProcStat } from './process-group'

const entry = (n: number): string => `${n}.${n * 10}.4026531836.${n.toString(16).padStart(16, '0')}`

describe('job markers', () => {
  it('name this process, with its start time and pid namespace, and a token of their own', () => {
    const a = newJobToken()
    const b = newJobToken()
    expect(a).not.toBe(b)
    const [parsed] = parseMarker(a)
    expect(parsed?.token).toBe(a)
    expect(parsed?.owner).toEqual(selfOwner())
    expect(parsed?.owner.pid).toBe(process.pid)
    expect(parsed?.owner.startTime).toBe(readProcStat('self')?.startTime)
    expect(parsed?.owner.pidNamespace).toBeGreaterThan(0)
  })

  it('keep the marker a command inherited, so an outer job still reaches an inner one', () => {
    const token = newJobToken()
    expect(markerValue(undefined, token)).toBe(token)
    expect(markerValue(entry(1), token)).toBe(`${entry(1)}:${token}`)
    expect(parseMarker(markerValue(`${entry(1)}:${entry(2)}`, token)).map((e) => e.token)).toEqual([
      entry(1),
      entry(2),
      token
    ])
  })

  it('drop what is not a marker entry, and stay bounded however long the inherited one is', () => {
    const token = newJobToken()
    const forged = [
      'garbage',
      `${entry(1)}x`,
      '1.2.3.ABCDEF0123456789',
      '1.2.3.0123',
      '-1.2.3.0123456789abcdef',
      '',
      entry(2)
    ].join(':')
    expect(markerValue(forged, token)).toBe(`${entry(2)}:${token}`)
    const long = Array.from({ length: 50 }, (_, i) => entry(i + 1)).join(':')
    const kept = parseMarker(markerValue(long, token))
    expect(kept).toHaveLength(8)
    expect(kept.at(-1)?.token).toBe(token)
    expect(kept.at(-2)?.token).toBe(entry(50))
  })

  it('are read from every copy of the variable in an environment block', () => {
    const environ = [
      `A=1`,
      `${JOB_MARKER_VAR}=${entry(1)}`,
      `X${JOB_MARKER_VAR}=${entry(2)}`,
      `${JOB_MARKER_VAR}=${entry(3)}`,
      ''
    ].join('\0')
    expect(markersInEnviron(environ)).toEqual([entry(1), entry(3)])
    expect(markersInEnviron(`${JOB_MARKER_VAR}=${entry(4)}`)).toEqual([entry(4)])
    expect(markersInEnviron('')).toEqual([])
  })
})
