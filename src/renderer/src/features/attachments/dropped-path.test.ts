import { describe, expect, it } from 'vitest'
import { droppedProjectPath } from './dropped-path'

describe('droppedProjectPath', () => {
  it('turns a file in the folder into its project path', () => {
    expect(droppedProjectPath('/home/p/app/src/a.ts', '/home/p/app')).toBe('src/a.ts')
    expect(droppedProjectPath('/home/p/app/src/a.ts', '/home/p/app/')).toBe('src/a.ts')
    expect(droppedProjectPath('C:\\Users\\p\\app\\src\\a.ts', 'c:\\users\\p\\app')).toBe('src/a.ts')
  })

  it('refuses what is outside: a neighbour with the same prefix, the folder itself, no path', () => {
    expect(droppedProjectPath('/home/p/app-secrets/key', '/home/p/app')).toEqual({
      refused: 'key is not in the project folder; only files in it can be attached.'
    })
    expect(droppedProjectPath('/home/p/app', '/home/p/app')).toHaveProperty('refused')
    expect(droppedProjectPath('', '/home/p/app')).toHaveProperty('refused')
    // Case matters outside Windows: /Home is another folder.
    expect(droppedProjectPath('/Home/p/app/a.ts', '/home/p/app')).toHaveProperty('refused')
  })
})
