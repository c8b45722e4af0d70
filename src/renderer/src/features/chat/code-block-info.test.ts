import { describe, expect, it } from 'vitest'
import { codeBlockInfo, type HastNode } from './code-block-info'

const text = (value: string): HastNode => ({ type: 'text', value })
const span = (...children: HastNode[]): HastNode => ({
  type: 'element',
  tagName: 'span',
  properties: { className: ['hljs-keyword'] },
  children
})
const pre = (code: HastNode): HastNode => ({ type: 'element', tagName: 'pre', children: [code] })
const code = (className: string[] | undefined, ...children: HastNode[]): HastNode => ({
  type: 'element',
  tagName: 'code',
  properties: className ? { className } : {},
  children
})

describe('codeBlockInfo', () => {
  it('reads the fence language and the code, highlighting spans and all', () => {
    const node = pre(code(['hljs', 'language-ts'], span(text('const')), text(' a = 1\n')))
    expect(codeBlockInfo(node)).toEqual({ language: 'ts', text: 'const a = 1' })
  })

  it('drops only the one newline the Markdown parser adds, keeping blank lines the code has', () => {
    const node = pre(code(['language-py'], text('x = 1\n\n\n')))
    expect(codeBlockInfo(node).text).toBe('x = 1\n\n')
  })

  it('keeps tabs, backslashes, markup-looking text and non-ASCII exactly', () => {
    const raw = '\tif (a < b && c) {\n  s = "\\u00e9 é 🙂 <b>"\n}'
    expect(codeBlockInfo(pre(code(['language-js'], text(`${raw}\n`)))).text).toBe(raw)
  })

  it('labels a fence without a language as text', () => {
    expect(codeBlockInfo(pre(code(undefined, text('plain\n'))))).toEqual({
      language: 'text',
      text: 'plain'
    })
  })

  it('copes with a pre that holds no code element (or nothing at all)', () => {
    expect(codeBlockInfo(pre(text('odd\n')))).toEqual({ language: 'text', text: 'odd' })
    expect(codeBlockInfo(undefined)).toEqual({ language: 'text', text: '' })
  })

  it('takes the language from a class string too', () => {
    const node = pre({
      type: 'element',
      tagName: 'code',
      properties: { className: 'language-shell extra' },
      children: [text('ls\n')]
    })
    expect(codeBlockInfo(node).language).toBe('shell')
  })
})
