// Browser mode cannot be knocked over: the real `serve` process takes the malformed requests and
// frames any web page can send, and goes on serving; a paste too large to send stays in the box
// with a sentence saying what to do instead.
import { closeCode, encodeFrame, openRawSocket, rawExchange } from '../testing/raw-wire'
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

interface Clipboard {
  writeText(text: string): Promise<void>
}

test('malformed requests and frames are answered, and the app goes on working', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([{ text: 'Still here, and listening.' }])
  const url = new URL(app.url)
  const port = Number(url.port)
  const token = url.searchParams.get('token') ?? ''

  // What a page on any other site could send with fetch(…, {mode: 'no-cors'}).
  for (const target of ['/%', '/%zz', '/assets/%E0%A4%A']) {
    const raw = await rawExchange(
      port,
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`
    )
    expect(raw.status, target).toBe(400)
  }
  const oversize = await openRawSocket(port, token)
  oversize.write(encodeFrame({ opcode: 1, length: 64n * 1024n * 1024n }))
  expect(closeCode(await oversize.closed())).toBe(1009)
  const unmasked = await openRawSocket(port, token)
  unmasked.write(encodeFrame({ opcode: 1, payload: Buffer.from('{}'), masked: false }))
  expect(closeCode(await unmasked.closed())).toBe(1002)

  await app.openFolder(page)
  await sendMessage(page, 'Are you still there?')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Still here')
  await waitForTurnEnd(page)
  expect(app.serverLog()).toContain('answered 400 to "/%"')
  expect(app.serverLog()).toContain('closed it with 1009')
})

test('a paste too large to send stays in the box, with what to do instead', async ({
  page,
  app,
  context
}) => {
  app.fakeModel.setScript([{ text: 'A short one arrived.' }])
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await app.openFolder(page)
  const line = 'ERROR 2024-05-01T12:00:00Z worker-7 request failed: connection reset by peer\n'
  const paste = line.repeat(Math.floor((3.2 * 1024 * 1024) / line.length))
  const input = page.getByTestId('composer-input')
  // Pasted as a person pastes it: one Ctrl+V from the clipboard.
  await page.evaluate((text) => {
    // Runs in the page; the e2e project is typed for Node, without the DOM's globals.
    const { clipboard } = (globalThis as unknown as { navigator: { clipboard: Clipboard } })
      .navigator
    return clipboard.writeText(text)
  }, paste)
  await input.focus()
  await page.keyboard.press('Control+V')

  const warning = page.getByTestId('message-too-large')
  await expect(warning).toHaveText(
    'This message is 3.2 MB; Mecatl sends at most 1 MB at a time. ' +
      'Save it to a file in the project and ask the model to read it.'
  )
  await expect(page.getByTestId('send-button')).toBeDisabled()
  await input.press('Enter')
  await expect(page.getByTestId('message-user')).toHaveCount(0)
  expect((await input.inputValue()).length).toBe(paste.length)
  await page.setViewportSize({ width: 900, height: 700 })
  await expect(warning).toBeInViewport()
  await page.setViewportSize({ width: 1280, height: 800 })

  // Cut down to size, the same box sends as usual.
  await input.fill(line.repeat(3))
  await expect(warning).toHaveCount(0)
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('A short one arrived.')
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
