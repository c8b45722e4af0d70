// Edit-and-resend, regenerate, retry and continue in the window. An edit is a new branch: the
// message shows "‹ 2 / 2 ›", the older branch is one click away, and the model's next request
// carries the branch shown (asserted at the fake model).
import { readFileSync, writeFileSync } from 'node:fs'
import { parse, stringify } from 'yaml'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

/** The texts of the last request the fake model received, without the system prompt. */
function lastRequest(requests: { messages: { role: string; text: string }[] }[]): string[] {
  return (requests.at(-1)?.messages ?? [])
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role}: ${m.text}`)
}

async function replies(page: Page): Promise<string[]> {
  return page.getByTestId('message-assistant').allInnerTexts()
}

test('edit resends as a new branch; the old one is kept and the model follows the one shown', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { text: 'Reply one.' },
    { text: 'Reply two.' },
    { text: 'Reply to the edit.' },
    { text: 'Reply on the first branch.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'first')
  await waitForTurnEnd(page)
  await sendMessage(page, 'second')
  await waitForTurnEnd(page)

  const second = page.getByTestId('message-user').last()
  await second.hover()
  await page.getByTestId('edit-message').last().click()
  const editor = page.getByTestId('message-editor-input')
  await expect(editor).toHaveValue('second')
  await editor.fill('second, said better')
  await page.getByTestId('message-editor-send').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('Reply to the edit.')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('branch-count')).toHaveText('2 / 2')
  expect(await replies(page)).toEqual(['Reply one.', 'Reply to the edit.'])
  expect(lastRequest(app.fakeModel.chatRequests())).toEqual([
    'user: first',
    'assistant: Reply one.',
    'user: second, said better'
  ])

  // Back to the first version: its reply is there, and the next message follows it.
  await page.getByTestId('branch-previous').click()
  await expect(page.getByTestId('branch-count')).toHaveText('1 / 2')
  await expect(page.getByTestId('message-user').last()).toHaveText('second')
  expect(await replies(page)).toEqual(['Reply one.', 'Reply two.'])
  await sendMessage(page, 'third')
  await waitForTurnEnd(page)
  expect(lastRequest(app.fakeModel.chatRequests())).toEqual([
    'user: first',
    'assistant: Reply one.',
    'user: second',
    'assistant: Reply two.',
    'user: third'
  ])

  // The choice is the session's: a reload shows the same branch.
  await page.reload()
  await expect(page.getByTestId('message-user').last()).toHaveText('third')
  await expect(page.getByTestId('branch-count')).toHaveText('1 / 2')
  await page.getByTestId('branch-next').click()
  await expect(page.getByTestId('message-user').last()).toHaveText('second, said better')
})

test('Regenerate asks again for the last reply; Up in an empty box edits the last message', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([{ text: 'A first answer.' }, { text: 'A second answer.' }])
  await app.openFolder(page)
  await sendMessage(page, 'answer me')
  await waitForTurnEnd(page)
  await page.getByTestId('message-assistant').last().hover()
  await page.getByTestId('regenerate-reply').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('A second answer.')
  await waitForTurnEnd(page)
  expect(await replies(page)).toEqual(['A second answer.'])
  await expect(page.getByTestId('branch-count')).toHaveText('2 / 2')
  expect(lastRequest(app.fakeModel.chatRequests())).toEqual(['user: answer me'])

  const box = page.getByTestId('composer-input')
  await box.focus()
  await page.keyboard.press('ArrowUp')
  await expect(page.getByTestId('message-editor-input')).toHaveValue('answer me')
  await expect(page.getByTestId('message-editor-input')).toBeFocused()
  // Escape closes the editor and leaves the message as it was.
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('message-editor')).toHaveCount(0)
  await expect(page.getByTestId('message-user')).toHaveText(['answer me'])
})

test('after a provider error, Retry sends the same request again and Continue carries on', async ({
  page,
  app
}) => {
  // No automatic retries: the error ends the turn at once.
  const settings = parse(readFileSync(app.settingsFile, 'utf8')) as Record<string, unknown>
  writeFileSync(app.settingsFile, stringify({ ...settings, provider_max_retries: 0 }))
  app.fakeModel.setScript([
    { status: 500, error: 'the fake model broke' },
    { text: 'Recovered on retry.' },
    { text: 'And carried on.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'please work')
  await expect(page.getByTestId('turn-error')).toBeVisible()
  await expect(page.getByTestId('retry-turn')).toBeVisible()
  await page.getByTestId('retry-turn').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('Recovered on retry.')
  await waitForTurnEnd(page)
  expect(lastRequest(app.fakeModel.chatRequests())).toEqual(['user: please work'])
  // The failed attempt is kept as the first version; a good turn offers no Retry.
  await expect(page.getByTestId('branch-count')).toHaveText('2 / 2')
  await expect(page.getByTestId('retry-turn')).toHaveCount(0)

  await page.getByTestId('branch-previous').click()
  await expect(page.getByTestId('turn-error')).toBeVisible()
  await page.getByTestId('continue-turn').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('And carried on.')
  await waitForTurnEnd(page)
  expect(lastRequest(app.fakeModel.chatRequests()).at(-1)).toBe(
    'user: Continue from where you stopped.'
  )
})
