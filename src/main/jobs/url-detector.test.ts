import { describe, expect, it } from 'vitest'
import { UrlDetector } from './url-detector'

function detect(...chunks: string[]): string[] {
  const detector = new UrlDetector()
  for (const chunk of chunks) detector.feed(Buffer.from(chunk))
  detector.end()
  return detector.urls.map((url) => url.text)
}

describe('UrlDetector', () => {
  it('finds the address a dev server prints', () => {
    expect(detect('  VITE v5 ready\r\n  ➜  Local:   http://localhost:5173/\r\n')).toEqual([
      'http://localhost:5173/'
    ])
  })

  it('sees through colour codes inside the URL', () => {
    // How Vite colours the port.
    const printed = 'Local: \x1b[36mhttp://localhost:\x1b[1m5173\x1b[22m/\x1b[39m\r\n'
    expect(detect(printed)).toEqual(['http://localhost:5173/'])
  })

  it('finds a URL split across two reads', () => {
    expect(detect('Serving on http://127.0.0.1:80', '00/docs now\n')).toEqual([
      'http://127.0.0.1:8000/docs'
    ])
  })

  it('does not take a port that is still arriving for the whole port', () => {
    const detector = new UrlDetector()
    detector.feed(Buffer.from('at http://localhost:30'))
    expect(detector.urls).toEqual([])
    detector.feed(Buffer.from('00\n'))
    expect(detector.urls.map((url) => url.text)).toEqual(['http://localhost:3000'])
  })

  it('counts a URL at the very end once the output ends', () => {
    expect(detect('open http://localhost:4000')).toEqual(['http://localhost:4000'])
  })

  it('leaves out trailing punctuation and repeats', () => {
    expect(
      detect('see http://localhost:8080.\n', 'again (http://localhost:8080)\n', 'x\n')
    ).toEqual(['http://localhost:8080'])
  })

  it('ignores other hosts and URLs without a port', () => {
    expect(detect('https://example.com:8080/ http://localhost/ http://10.0.0.2:80/\n')).toEqual([])
  })

  it('links 0.0.0.0 through localhost', () => {
    const detector = new UrlDetector()
    detector.feed(Buffer.from('listening on http://0.0.0.0:9000\n'))
    expect(detector.urls).toEqual([{ text: 'http://0.0.0.0:9000', href: 'http://localhost:9000' }])
  })
})
