// Signing in to a remote MCP server behind OAuth from Settings → MCP: the SDK's own
// authorization server pieces on 127.0.0.1 (consent is automatic), the page opened in a tab, the
// server's tools the moment the browser comes back; sign out forgets the login.
import { readFileSync } from 'node:fs'
import { startOAuthMcpServer, type OAuthMcpServer } from '../testing/oauth-test-server'
import type { Locator, Page } from '@playwright/test'
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { plain, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

let as: OAuthMcpServer
test.beforeEach(async () => {
  as = await startOAuthMcpServer()
})
test.afterEach(async () => {
  await as.close()
})

/** Adds the remote server `secure` at the fixture's address in Settings → MCP, and saves. */
async function addSecureServer(page: Page): Promise<void> {
  await page.getByTestId('settings-button').click()
  await page.getByTestId('mcp-add-button').click()
  await page.getByTestId('mcp-name').fill('secure')
  await page.getByTestId('mcp-kind-url').check()
  await page.getByTestId('mcp-url').fill(as.mcpUrl)
  await page.getByTestId('mcp-apply').click()
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
}

/** Clicks a Sign in button and lets the tab it opens come back signed in. */
async function signInThrough(page: Page, button: Locator): Promise<Page> {
  const popup = page.waitForEvent('popup')
  await button.click()
  const tab = await popup
  await expect(tab.locator('h1')).toHaveText('Signed in to secure', { timeout: 30_000 })
  return tab
}

test('sign in to a remote server from Settings, see its tools, and sign out', async ({
  page,
  app
}) => {
  await app.openFolder(page)
  await addSecureServer(page)

  // Found to want sign-in from its first answer; nothing waits on it, and nothing is registered.
  const row = page.locator('[data-testid="mcp-server"][data-name="secure"]')
  await expect(row).toHaveAttribute('data-state', 'needs-sign-in', { timeout: 30_000 })
  await expect(row.getByTestId('mcp-state')).toHaveText('Needs sign-in')
  await expect(row.getByTestId('mcp-sign-in-state')).toHaveText(
    'Not signed in: its tools appear once you sign in'
  )
  expect(as.registrations).toEqual([])

  // The authorization server sends the browser back to the port Mecatl opened for this sign-in.
  const tab = await signInThrough(page, row.getByTestId('mcp-sign-in'))
  await expect(tab.locator('body')).toContainText('You can close this tab')
  expect(new URL(tab.url()).hostname).toBe('127.0.0.1')
  await tab.close()

  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
  await expect(row.getByTestId('mcp-sign-in-state')).toContainText(
    'Signed in · token renews before'
  )
  await row.getByTestId('mcp-tab-tools').click()
  await expect(row.locator('[data-testid="mcp-tool"][data-tool="mcp__secure__echo"]')).toBeVisible()
  expect(as.authorizeRequests[0]).toMatchObject({
    code_challenge_method: 'S256',
    resource: as.mcpUrl
  })
  // The login is kept apart from the settings, in a file only the owner reads.
  expect(readFileSync(app.settingsFile, 'utf8')).not.toContain('token')

  await row.getByTestId('mcp-sign-out').click()
  await expect(row).toHaveAttribute('data-state', 'needs-sign-in', { timeout: 30_000 })
  await expect(row.getByTestId('mcp-sign-in')).toBeVisible()
})

test('a login revoked mid-session is a result the model reads and a notice; signing in again brings the tools back', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { text: 'Echoing.', toolCalls: [{ name: 'mcp__secure__echo', input: { text: 'hello' } }] },
    (req) => ({ text: `It said: ${plain(latestToolResults(req)[0]?.content ?? 'nothing')}` })
  ])
  await app.openFolder(page)
  await addSecureServer(page)
  const row = page.locator('[data-testid="mcp-server"][data-name="secure"]')
  await expect(row).toHaveAttribute('data-state', 'needs-sign-in', { timeout: 30_000 })
  ;(await signInThrough(page, row.getByTestId('mcp-sign-in'))).close()
  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
  await page.getByTestId('settings-close').click()

  // The server revokes the login and the access token runs out: no refresh can save it.
  as.revokeAllRefreshTokens()
  as.expireAllAccessTokens()
  await sendMessage(page, 'Echo hello through the secure server')
  await page.getByTestId('approval-allow').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'It said: MCP call failed: the server "secure" needs you to sign in again'
  )
  await waitForTurnEnd(page)
  await expect(toolCards(page, 'mcp__secure__echo')).toHaveAttribute('data-state', 'failed')
  const notice = page.getByTestId('mcp-sign-in-notice')
  await expect(notice).toContainText('secure needs you to sign in again')

  ;(await signInThrough(page, notice.getByTestId('mcp-notice-sign-in'))).close()
  await expect(notice).toBeHidden({ timeout: 30_000 })
  await page.getByTestId('settings-button').click()
  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
})
