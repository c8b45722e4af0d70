import { describe, expect, it } from 'vitest'
import { parseRoute, routeSearch } from './route'

describe('route', () => {
  it('reads folder and session', () => {
    expect(parseRoute('?token=t&folder=%2Fhome%2Fa')).toEqual({ folder: '/home/a', session: null })
    expect(parseRoute('')).toEqual({ folder: null, session: null })
  })

  it('keeps the token when opening a folder and drops the old session', () => {
    const next = routeSearch('?token=abc&folder=%2Fold&session=s1', { folder: '/new dir' })
    const params = new URLSearchParams(next)
    expect(params.get('token')).toBe('abc')
    expect(params.get('folder')).toBe('/new dir')
    expect(params.get('session')).toBeNull()
  })

  it('removes parameters set to null', () => {
    expect(routeSearch('?token=abc&folder=%2Fx', { folder: null })).toBe('?token=abc')
  })
})
