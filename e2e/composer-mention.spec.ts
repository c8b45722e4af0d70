// The `@` file finder: on a project of 100,000 files, typing `@` and a few letters finds a file,
// a pick puts the path in the message as a mention, and the message sent carries it.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { latestUserText } from '../testing/fake-model-server'
import { writeFileTree } from '../testing/file-tree'
import { expect, test } from './fixtures/app'
import { waitForTurnEnd } from './fixtures/chat'

const target = 'packages/needle-zone/src/mention-target.ts'
const spaced = 'docs/release notes.md'

test('`@` finds a file among 100,000, a pick inserts the mention, and it is sent', async ({
  page,
  app
}) => {
  // Writing the tree takes a while on a busy machine; the finder itself answers in milliseconds.
  test.setTimeout(240_000)
  await writeFileTree(app.workspace, { files: 100_000, dirs: 3_000 })
  for (const file of [target, spaced, 'dist/mention-target.js']) {
    mkdirSync(path.dirname(path.join(app.workspace, file)), { recursive: true })
    writeFileSync(path.join(app.workspace, file), '')
  }
  // Ignored by .gitignore: never offered.
  writeFileSync(path.join(app.workspace, '.gitignore'), 'dist/\n')
  app.fakeModel.setScript([{ text: 'I will read that file.' }])
  await app.openFolder(page)

  const input = page.getByTestId('composer-input')
  const finder = page.getByTestId('mention-finder')
  await input.click()
  await input.pressSequentially('Please read @')
  await expect(finder).toBeVisible()
  // A keystroke at a time, as a person types: each one asks the index again.
  await input.pressSequentially('corerend')
  await expect(finder.getByTestId('mention-item')).toHaveCount(50)
  for (let i = 0; i < 'corerend'.length; i++) await input.press('Backspace')
  await input.pressSequentially('mentiontarg')
  const items = finder.getByTestId('mention-item')
  await expect(items.first()).toHaveAttribute('data-path', target)
  await expect(finder.locator('[data-path="dist/mention-target.js"]')).toHaveCount(0)
  await expect(items.first().locator('mark').first()).toBeVisible()
  await expect(items.first()).toHaveAttribute('aria-selected', 'true')

  await input.press('Enter')
  await expect(finder).toBeHidden()
  await expect(input).toHaveValue(`Please read @${target} `)

  // A path with a space goes in quoted; Tab picks too; arrows move through the list.
  await input.pressSequentially('and @releasenot')
  await expect(items.first()).toHaveAttribute('data-path', spaced)
  await input.press('Tab')
  await expect(input).toHaveValue(`Please read @${target} and @"${spaced}" `)

  // Folders are offered too, and go in with a trailing slash.
  await input.pressSequentially('in @needlezo')
  await expect(items.first()).toHaveAttribute('data-path', 'packages/needle-zone')
  await input.press('Enter')
  await expect(input).toHaveValue(
    `Please read @${target} and @"${spaced}" in @packages/needle-zone/ `
  )

  // Escape closes the finder without touching the text; an email address never opens it.
  await input.pressSequentially('@pack')
  await expect(finder).toBeVisible()
  await input.press('Escape')
  await expect(finder).toBeHidden()
  await input.press('Backspace')
  await input.pressSequentially('k mail me@example')
  await expect(finder).toBeHidden()

  // Nothing opens while an IME composition is in progress; it opens once the text is committed.
  await input.dispatchEvent('compositionstart')
  await input.pressSequentially(' @rea')
  await expect(finder).toBeHidden()
  await input.dispatchEvent('compositionend')
  await input.press('End')
  await expect(finder).toBeVisible()
  await input.press('Escape')
  await expect(finder).toBeHidden()

  await input.press('Enter')
  await expect(page.getByTestId('message-user').last()).toContainText(`@${target}`)
  await waitForTurnEnd(page)
  const request = app.fakeModel.chatRequests().at(-1)
  expect(request).toBeDefined()
  expect(request && latestUserText(request)).toBe(
    `Please read @${target} and @"${spaced}" in @packages/needle-zone/ @pack mail me@example @rea`
  )
})
