// The sandbox's screens, photographed in both themes and checked with axe-core in both: what a
// confined command can see (for a person whose home has toolchains and a key), paths added for
// a project, and the Shell card and badge confined and not. What they do is proved by
// sandbox-view.spec.ts and sandbox.spec.ts.
import { execFileSync } from 'node:child_process'
import { expect, test } from '../fixtures/app'
import { openCard, sendMessage, waitForTurnEnd } from '../fixtures/chat'
import { makePersonHome, personEnv } from '../fixtures/person-home'

test.use({ serverEnv: personEnv })

let takeAway: (() => Promise<void>) | undefined
test.beforeAll(async () => {
  takeAway = await makePersonHome()
})
test.afterAll(async () => {
  await takeAway?.()
})

test('what a command sees, paths for this project, a confined card, an unconfined badge', async ({
  page,
  app
}) => {
  execFileSync('git', ['init', '-q'], { cwd: app.workspace })
  app.fakeModel.setScript([
    { toolCalls: [{ name: 'Shell', input: { command: 'ls -A | wc -l' } }] },
    { text: 'Counted.' }
  ])
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  const sight = page.getByTestId('sandbox-sight')
  await sight.scrollIntoViewIfNeeded()
  await expect(page.getByTestId('sandbox-home-defaults').locator('li')).toHaveCount(3)
  await app.screenshot(page, 'sandbox-view')

  await page.getByTestId('sandbox-sockets').fill('$SSH_AUTH_SOCK')
  await page.getByTestId('sandbox-sockets').blur()
  await page.getByTestId('sandbox-env_passthrough').fill('JAVA_HOME\nGITHUB_TOKEN')
  await page.getByTestId('sandbox-env_passthrough').blur()
  const input = page.getByTestId('sandbox-project-input')
  await input.fill('~/datasets')
  await input.press('Enter')
  await input.fill('/srv/build-cache')
  await page.getByTestId('sandbox-project-access').selectOption('writable')
  await page.getByTestId('sandbox-project-add-button').click()
  await expect(page.getByTestId('sandbox-project-path')).toHaveCount(2)
  await page.getByTestId('sandbox-project').scrollIntoViewIfNeeded()
  await app.screenshot(page, 'sandbox-project-paths')
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  await expect(sight).not.toContainText('your changes count once saved')
  await sight.scrollIntoViewIfNeeded()
  await app.screenshot(page, 'sandbox-view-saved')
  await page.setViewportSize({ width: 900, height: 700 })
  await sight.scrollIntoViewIfNeeded()
  await app.screenshot(page, 'sandbox-view-900')
  await page.getByTestId('sandbox-variables').scrollIntoViewIfNeeded()
  await app.screenshot(page, 'sandbox-variables-900')
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.getByTestId('settings-close').click()

  await sendMessage(page, 'count the files here')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  const card = await openCard(page, 'Shell')
  await expect(card.getByTestId('tool-confinement')).toContainText('confined (bubblewrap)')
  await app.screenshot(page, 'sandbox-shell-card')
  await page.getByTestId('settings-button').click()
  await page.getByTestId('sandbox-kind').selectOption('none')
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  await page.getByTestId('settings-close').click()
  await expect(page.getByTestId('sandbox-warning')).toHaveText('· Shell not confined')
  await app.screenshot(page, 'sandbox-badge-unconfined')
})
