// Settings → Permissions shows where Shell stands, and a Shell command runs confined: it cannot
// read a secret of the person's home, and its card says so.
import { expect, test } from './fixtures/app'
import { sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

test('Settings shows Shell confined by bubblewrap, and a confined command reads no secret', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      toolCalls: [
        { name: 'Shell', input: { command: `ls -A ${app.home} | wc -l | sed 's/^/entries: /'` } }
      ]
    },
    { text: 'Counted.' }
  ])
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  const sandbox = page.getByTestId('sandbox-settings')
  await sandbox.scrollIntoViewIfNeeded()
  await expect(page.getByTestId('sandbox-status')).toHaveText(
    'Shell: confined (bubblewrap), network off'
  )
  await page.getByTestId('sandbox-kind').selectOption('none')
  await expect(page.getByTestId('sandbox-none-warning')).toBeVisible()
  await page.getByTestId('settings-close').click()
  // Leaving with the change unsaved asks; discarded, it never applied.
  await page.getByTestId('leave-prompt-discard').click()
  // Left unsaved: the next command still runs confined, and Mecatl's data directory is empty.
  await sendMessage(page, 'count the files of the data directory')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  const card = toolCards(page, 'Shell').first()
  await card.locator('.tool-card__header').click()
  await expect(card.getByTestId('tool-output')).toContainText('entries: 0')
  await expect(card.getByTestId('tool-confinement')).toHaveText(
    'Shell: confined (bubblewrap), network off'
  )
  await expect(page.getByTestId('sandbox-warning')).toHaveCount(0)
  // Confined with no network, Shell sends nothing: its card shows no send.
  await expect(card).not.toContainText('egress: chosen')

  // Saved, "no sandbox" is the person's choice, and the badge says so from then on.
  await page.getByTestId('settings-button').click()
  await page.getByTestId('sandbox-kind').selectOption('none')
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  await expect(page.getByTestId('sandbox-status')).toHaveText(
    'Shell: not confined (sandbox.kind is none in Settings)'
  )
  await page.getByTestId('settings-close').click()
  await expect(page.getByTestId('sandbox-warning')).toHaveText('· Shell not confined')
})
