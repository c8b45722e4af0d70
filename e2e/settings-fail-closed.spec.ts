import { appendFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

// A settings file that stops validating never sends the app back to defaults: it keeps the last
// valid settings and says so, or, with nothing valid to fall back on, runs nothing and says why.

test('a typo in the settings file shows a banner and the last valid settings stay in force', async ({
  app,
  page
}) => {
  await app.openFolder(page)
  // Edited in an editor while the app runs: a misspelt key at the end of the file.
  appendFileSync(app.settingsFile, 'shel: { enabled: false }\n')
  app.fakeModel.setScript([{ text: 'Still here, on your last valid settings.' }])
  await sendMessage(page, 'Are you there?')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('message-assistant').last()).toContainText('Still here')

  const banner = page.getByTestId('settings-banner')
  await expect(banner).toBeVisible()
  await expect(banner).toContainText('Your settings file has a problem.')
  await expect(banner).toContainText('using the last settings that were valid')
  await expect(banner).toContainText('"shel" is not a setting here; did you mean "shell"?')
  await expect(banner).toContainText(/settings\.yaml line \d+/)

  await banner.getByRole('button', { name: 'Open Settings' }).click()
  const issues = page.getByTestId('settings-file-issues')
  await expect(issues).toContainText('did you mean "shell"?')
  await expect(issues).toContainText(/line \d+/)
})

test('with no valid copy, nothing runs: a red banner, and the message is kept with the reason', async ({
  app,
  page
}) => {
  await app.openFolder(page)
  appendFileSync(app.settingsFile, 'permissions: { mode: allow }\n')
  rmSync(path.join(app.home, 'settings.last-valid.yaml'))
  app.fakeModel.setScript([{ text: 'This must never be asked.' }])

  await page.getByTestId('composer-input').fill('Delete the build folder')
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('send-error')).toContainText(
    'Nothing can run until the settings are fixed'
  )
  await expect(page.getByTestId('composer-input')).toHaveValue('Delete the build folder')
  expect(app.fakeModel.chatRequests()).toHaveLength(0)

  const banner = page.getByTestId('settings-banner')
  await expect(banner).toBeVisible()
  await expect(banner).toContainText('no earlier valid copy to use, so nothing can run')
  await expect(banner).toContainText(
    /settings\.yaml line \d+: not valid YAML: Map keys must be unique/
  )
  // On a small laptop window the banner wraps and its button stays in reach.
  await page.setViewportSize({ width: 900, height: 700 })
  await expect(banner.getByRole('button', { name: 'Open Settings' })).toBeInViewport()
})
