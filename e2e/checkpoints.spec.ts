// Checkpoints in the window: a Shell card says which files its command changed, with their diffs;
// Rewind puts the files and the conversation back to before a message; Undo restore brings the
// newer state back; a card's Revert asks before replacing a file changed outside the agent.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { expect, test } from './fixtures/app'
import { readWorkspaceFile, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

test('rewinds files and conversation from a message, and undoes the restore', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'Renaming the greeting.',
      toolCalls: [
        {
          name: 'Shell',
          input: { command: "sed -i 's/Hello/Howdy/' src/greet.ts && echo done > notes/done.md" }
        }
      ]
    },
    { text: 'Changed the greeting and noted it.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Make the greeting friendlier')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  expect(readWorkspaceFile(app.workspace, 'src/greet.ts')).toContain('Howdy')

  // The card says what the command did to the files, and shows each diff.
  const card = toolCards(page, 'Shell')
  await expect(card.getByTestId('call-files-summary')).toHaveText('changed 1 file, created 1')
  await card.getByTestId('call-files-summary').click()
  await card.getByTestId('call-files-file').filter({ hasText: 'src/greet.ts' }).click()
  await expect(card.getByTestId('diff-remove')).toContainText('Hello')
  await expect(card.getByTestId('diff-add')).toContainText('Howdy')

  // Rewind from the message: files and conversation.
  await page.getByTestId('message-user').hover()
  await page.getByTestId('rewind-button').click()
  const dialog = page.getByTestId('restore-dialog')
  await expect(dialog.getByTestId('restore-files')).toContainText('src/greet.ts')
  await expect(dialog.getByTestId('restore-files')).toContainText('notes/done.md')
  await expect(dialog.getByTestId('restore-scope-both')).toBeChecked()
  await dialog.getByTestId('restore-confirm').click()
  await expect(dialog).toHaveCount(0)
  expect(readWorkspaceFile(app.workspace, 'src/greet.ts')).toContain('Hello')
  expect(readWorkspaceFile(app.workspace, 'notes/done.md')).toBeNull()
  // The conversation went back too: a new session before the message, the message in the box.
  await expect(page.getByTestId('session-title')).toContainText('(fork)')
  await expect(page.getByTestId('message-user')).toHaveCount(0)
  await expect(page.getByTestId('composer-input')).toHaveValue('Make the greeting friendlier')

  // The old session shows the restore, and Undo restore brings the newer files back.
  await page.getByTestId('session-item').filter({ hasNotText: '(fork)' }).click()
  const divider = page.getByTestId('restore-divider')
  await expect(divider).toContainText('Files restored to before “Make the greeting friendlier”')
  await divider.getByTestId('restore-undo').click()
  await expect(dialog.getByTestId('restore-files')).toContainText('src/greet.ts')
  await dialog.getByTestId('restore-confirm').click()
  await expect(dialog).toHaveCount(0)
  expect(readWorkspaceFile(app.workspace, 'src/greet.ts')).toContain('Howdy')
  expect(readWorkspaceFile(app.workspace, 'notes/done.md')).toBe('done\n')
  await expect(page.getByTestId('restore-divider')).toHaveCount(2)
  const undone = page.getByTestId('restore-divider').last()
  await expect(undone).toContainText(
    'Undid: Files restored to before “Make the greeting friendlier”'
  )
  await expect(undone).toContainText(/brought back/)
})

test('a card’s Revert asks before replacing a file changed outside the agent', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { toolCalls: [{ name: 'Shell', input: { command: 'echo "- call mum" >> notes/todo.md' } }] },
    { text: 'Added it.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Add a todo')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  // The person edits the same file in their editor afterwards.
  writeFileSync(path.join(app.workspace, 'notes/todo.md'), '- my own list\n')

  const card = toolCards(page, 'Shell')
  await card.getByTestId('call-files-revert').click()
  const dialog = page.getByTestId('restore-dialog')
  await expect(dialog.getByTestId('restore-conflicts')).toContainText('notes/todo.md')
  await expect(dialog.getByTestId('restore-confirm')).toBeDisabled()
  await dialog.getByTestId('restore-replace-changed').check()
  await dialog.getByTestId('restore-confirm').click()
  await expect(dialog).toHaveCount(0)
  expect(readWorkspaceFile(app.workspace, 'notes/todo.md')).toBe(
    '- buy milk\n- write the e2e tests\n'
  )
  await expect(page.getByTestId('restore-divider')).toContainText(
    'Reverted the changes of a Shell call'
  )
})

test('Settings → Checkpoints keeps them for as long as set, and turned off the header says so', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { toolCalls: [{ name: 'Write', input: { path: 'a.txt', content: 'a\n' } }] },
    { text: 'written' }
  ])
  await app.openFolder(page)
  await expect(page.getByTestId('checkpoints-off')).toHaveCount(0)
  await page.getByTestId('settings-button').click()
  const section = page.getByTestId('checkpoints-section')
  await section.scrollIntoViewIfNeeded()
  await expect(section.getByTestId('checkpoints-status')).toHaveText(
    'On: 0 checkpoints of this folder.'
  )
  await section.getByTestId('checkpoints-keep_days').fill('7')
  await section.getByTestId('checkpoints-keep_days').blur()
  await section.getByTestId('checkpoints-enabled').setChecked(false)
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  await expect
    .poll(
      () => (parse(readFileSync(app.settingsFile, 'utf8')) as { checkpoints?: unknown }).checkpoints
    )
    .toEqual({ keep_days: 7, enabled: false })
  await expect(section.getByTestId('checkpoints-status')).toContainText(
    'Off: checkpoints are turned off in Settings'
  )

  await page.getByTestId('settings-close').click()
  await expect(page.getByTestId('checkpoints-off')).toBeVisible()
  await sendMessage(page, 'Write a.txt')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  await expect(toolCards(page, 'Write')).toHaveAttribute('data-state', 'done')
  await expect(toolCards(page, 'Write').getByTestId('call-files')).toHaveCount(0)
})
