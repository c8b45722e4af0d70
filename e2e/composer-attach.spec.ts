// Images and files in the message box: a pasted picture goes to a vision model as an image and is
// refused, kept in the box, for a text-only one; a project file goes in as a path the model can
// Read. The chips show in the box and on the sent message, also after a reload.
import { attachedFileLine, imagesRefusal } from '../src/shared/attachments'
import { expect, test } from './fixtures/app'
import { pastePng, png, twoModels } from './fixtures/attachments'
import { waitForTurnEnd } from './fixtures/chat'

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
