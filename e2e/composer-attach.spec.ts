// Images and files in the message box: a pasted picture goes to a vision model as an image and is
// refused, kept in the box, for a text-only one; a project file goes in as a path the model can
// Read. The chips show in the box and on the sent message, also after a reload.
import { writeFileSync } from 'node:fs'
import { crc32, deflateSync } from 'node:zlib'
import type { Page } from '@playwright/test'
import { stringify } from 'yaml'
import { attachedFileLine, imagesRefusal } from '../src/shared/attachments'
import { expect, settingsFor, test, type App } from './fixtures/app'
import { waitForTurnEnd } from './fixtures/chat'

/** A real PNG (a colour gradient), so the thumbnail shows something a person can recognise. */
function gradientPng(size: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.writeUInt8(8, 8)
  header.writeUInt8(2, 9)
  const rows: number[] = []
  for (let y = 0; y < size; y++) {
    rows.push(0)
    for (let x = 0; x < size; x++) rows.push((x * 255) / size, (y * 255) / size, 200)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0))
  ])
}

const png = gradientPng(64).toString('base64')

/**
 * Two models of the fake provider: one that takes images (the default) and one that does not.
 * Written before the page opens, they are the settings it is given.
 */
function twoModels(app: App): void {
  const base = settingsFor('fake-openai', app.fakeModel) as {
    providers: Record<string, unknown>[]
  }
  const provider = {
    ...base.providers[0],
    models: ['fake-vision', 'fake-text'],
    image_models: ['fake-vision']
  }
  writeFileSync(
    app.settingsFile,
    stringify({
      ...base,
      providers: [provider],
      default_model: { provider: 'fake', model: 'fake-vision' }
    })
  )
}

/** Pastes a PNG into the message box as the clipboard of a screenshot tool would hold it. */
async function pastePng(page: Page): Promise<void> {
  await page.getByTestId('composer-input').evaluate((box, data) => {
    // Runs in the page; the e2e project is typed for Node, without the DOM's globals.
    const dom = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } }
      File: new (parts: unknown[], name: string, options: { type: string }) => unknown
      ClipboardEvent: new (type: string, init: Record<string, unknown>) => Event
      atob: (data: string) => string
    }
    const bytes = Uint8Array.from(dom.atob(data), (c) => c.charCodeAt(0))
    const transfer = new dom.DataTransfer()
    transfer.items.add(new dom.File([bytes], 'image.png', { type: 'image/png' }))
    box.dispatchEvent(
      new dom.ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true })
    )
  }, png)
}

test.beforeEach(async ({ app, page }) => {
  twoModels(app)
  app.fakeModel.setScript([{ text: 'A gradient from dark to light.' }, { text: 'Read it.' }])
  await page.goto(app.url)
  await app.openFolder(page)
})

test('a pasted image goes to a vision model and shows on the sent message', async ({
  page,
  app
}) => {
  await pastePng(page)
  const box = page.getByTestId('composer-attachments')
  await expect(box.getByTestId('attachment-chip')).toHaveCount(1)
  await expect(box).toContainText('pasted-image-1.png')
  await expect(box.locator('img')).toHaveAttribute('src', `data:image/png;base64,${png}`)
  await page.getByTestId('composer-input').fill('What is in this picture?')
  await app.screenshot(page, 'composer-attach-01-image-in-box')

  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('A gradient')
  await waitForTurnEnd(page)
  const user = app.fakeModel.chatRequests().at(-1)?.messages.at(-1)
  expect(user?.text).toBe('What is in this picture?')
  expect(user?.images).toEqual([{ mediaType: 'image/png', data: png }])
  // The box is empty again; the message carries the chip.
  await expect(page.getByTestId('composer-attachments')).toHaveCount(0)
  const sent = page.getByTestId('message-user').last().getByTestId('message-attachments')
  await expect(sent.getByTestId('attachment-chip')).toHaveCount(1)
  await expect(sent.getByTestId('attachment-remove')).toHaveCount(0)
  await app.screenshot(page, 'composer-attach-02-image-sent')

  await page.reload()
  const again = page.getByTestId('message-user').last().getByTestId('message-attachments')
  await expect(again.locator('img')).toHaveAttribute('src', `data:image/png;base64,${png}`)
  await expect(again).toContainText('pasted-image-1.png')
})

test('an image is refused for a text-only model, and stays in the box', async ({ page, app }) => {
  await page.getByTestId('model-picker').selectOption('fake\u0000fake-text')
  await pastePng(page)
  await page.getByTestId('composer-input').fill('Describe it')
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('attach-error')).toHaveText(imagesRefusal('fake-text'))
  await expect(page.getByTestId('composer-attachments').getByTestId('attachment-chip')).toHaveCount(
    1
  )
  await expect(page.getByTestId('composer-input')).toHaveValue('Describe it')
  await expect(page.getByTestId('message-user')).toHaveCount(0)
  expect(app.fakeModel.chatRequests()).toEqual([])
  await app.screenshot(page, 'composer-attach-03-refused')

  // Removing the image lets the text go.
  await page.getByTestId('attachment-remove').click()
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('message-user').last()).toContainText('Describe it')
  await waitForTurnEnd(page)
  expect(app.fakeModel.chatRequests().at(-1)?.messages.at(-1)?.images).toBeUndefined()
})

test('a project file is attached from the picker as a path to Read', async ({ page, app }) => {
  app.fakeModel.setScript([{ text: 'I will read src/greet.ts first.' }])
  await page.getByTestId('attach-file-button').click()
  const picker = page.getByTestId('file-picker')
  await expect(picker).toBeVisible()
  await picker.getByTestId('file-picker-entry').filter({ hasText: 'src/' }).click()
  await expect(picker.getByTestId('file-picker-path')).toHaveText('/src')
  await app.screenshot(page, 'composer-attach-04-picker')
  await picker.getByTestId('file-picker-entry').filter({ hasText: 'greet.ts' }).click()
  await expect(picker).toBeHidden()
  const chip = page.getByTestId('composer-attachments').getByTestId('attachment-chip')
  await expect(chip).toHaveText('src/greet.ts')

  await page.getByTestId('composer-input').fill('Review this')
  await page.getByTestId('send-button').click()
  await waitForTurnEnd(page)
  const user = app.fakeModel.chatRequests().at(-1)?.messages.at(-1)
  expect(user?.text).toBe(`Review this\n\n${attachedFileLine('src/greet.ts')}`)
  await expect(page.getByTestId('message-user').last().getByTestId('attachment-chip')).toHaveText(
    'src/greet.ts'
  )
  await app.screenshot(page, 'composer-attach-05-file-sent')
})

test('a dropped image becomes a chip; a dropped file that is no image is refused', async ({
  page
}) => {
  await page.getByTestId('composer-input').evaluate((box, data) => {
    const dom = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } }
      File: new (parts: unknown[], name: string, options: { type: string }) => unknown
      DragEvent: new (type: string, init: Record<string, unknown>) => Event
      atob: (data: string) => string
    }
    const bytes = Uint8Array.from(dom.atob(data), (c) => c.charCodeAt(0))
    const transfer = new dom.DataTransfer()
    transfer.items.add(new dom.File([bytes], 'diagram.png', { type: 'image/png' }))
    transfer.items.add(new dom.File(['hello'], 'notes.txt', { type: 'text/plain' }))
    const init = { dataTransfer: transfer, bubbles: true, cancelable: true }
    box.dispatchEvent(new dom.DragEvent('dragover', init))
    box.dispatchEvent(new dom.DragEvent('drop', init))
  }, png)
  const chips = page.getByTestId('composer-attachments').getByTestId('attachment-chip')
  await expect(chips).toHaveCount(1)
  await expect(chips).toContainText('diagram.png')
  await expect(page.getByTestId('attach-error')).toHaveText(
    'notes.txt is not a PNG, JPEG, GIF or WebP image. To attach a project file, use Attach file.'
  )
})
