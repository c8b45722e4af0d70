// MCP's screens, photographed in both themes and checked with axe-core in both: a local server
// added in Settings and called, a project's server waiting for trust, a remote one over HTTP with
// its resources, a form a server asks for, and signing in with OAuth (a remote server
// with its resources is in mcp-remote.spec.ts). What each screen does is
// proved by the functional spec named above its test.
import path from 'node:path'
import { writeFileSync } from 'node:fs'
import { stringify } from 'yaml'
import { latestToolResults } from '../../testing/fake-model-server'
import { startOAuthMcpServer } from '../../testing/oauth-test-server'
import { startRemoteMcpServer } from '../../testing/remote-mcp-server'
import { artifactsDir, expect, settingsFor, test } from '../fixtures/app'
import { openCard, plain, sendMessage, toolCards, waitForTurnEnd } from '../fixtures/chat'
import { everythingProject, everythingScript, writeProjectSettings } from '../fixtures/workspace'

// mcp.spec.ts
test('a project’s server waiting for trust; server-everything added, ready, logged, called', async ({
  page,
  app
}) => {
  writeProjectSettings(app.workspace, everythingProject('repo-tools'))
  app.fakeModel.setScript([
    {
      text: 'Asking the MCP server to echo.',
      toolCalls: [{ name: 'mcp__everything__echo', input: { message: 'hello from MCP' } }]
    },
    (req) => ({ text: `The server answered: ${plain(latestToolResults(req)[0]?.content ?? '')}` })
  ])
  await app.openFolder(page)
  await expect(page.getByTestId('mcp-trust-prompt')).toContainText(everythingScript)
  await app.screenshot(page, 'mcp-06-trust-prompt')
  await page.getByTestId('mcp-trust-later').click()
  await expect(page.getByTestId('mcp-trust-prompt')).toBeHidden()

  await page.getByTestId('settings-button').click()
  await page.getByTestId('mcp-add-button').click()
  await page.getByTestId('mcp-name').fill('everything')
  await page.getByTestId('mcp-command').fill(process.execPath)
  await page.getByTestId('mcp-args').fill(`${everythingScript}\nstdio`)
  await page.getByTestId('mcp-passthrough').fill('LD_PRELOAD')
  await page.getByTestId('mcp-apply').click()
  await expect(page.getByTestId('mcp-issue-passthrough')).toBeVisible()
  await page.getByTestId('mcp-form').scrollIntoViewIfNeeded()
  await app.screenshot(page, 'mcp-01-add-form')
  await page.getByTestId('mcp-passthrough').fill('')
  await page.getByTestId('mcp-apply').click()
  await page.getByTestId('provider-save-button').click()
  const row = page.locator('[data-testid="mcp-server"][data-name="everything"]')
  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
  await row.getByTestId('mcp-tab-tools').click()
  await row.scrollIntoViewIfNeeded()
  await app.screenshot(page, 'mcp-02-ready-tools')
  await row.getByTestId('mcp-tab-log').click()
  await expect(row.getByTestId('mcp-log')).toContainText('[everything]')
  await row.scrollIntoViewIfNeeded()
  await app.screenshot(page, 'mcp-03-log')

  await page.getByTestId('settings-close').click()
  await sendMessage(page, 'Echo something through MCP')
  await expect(page.getByTestId('message-assistant').last()).toContainText('The server answered')
  await waitForTurnEnd(page)
  await openCard(page, 'mcp__everything__echo')
  await app.screenshot(page, 'mcp-04-tool-call')
  await page.getByTestId('composer-input').fill('/mcp__everything__s')
  await expect(page.getByTestId('prompt-palette')).toContainText('simple-prompt')
  await app.screenshot(page, 'mcp-05-prompt-palette')
})

// mcp-elicitation.spec.ts
test('a server’s form mid-call, its progress, and the answered call', async ({ page, app }) => {
  const remote = await startRemoteMcpServer({
    mode: 'streamable',
    ask: {
      form: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Your name', description: 'As it goes on the badge' },
          team: {
            type: 'string',
            title: 'Team',
            oneOf: [
              { const: 'core', title: 'Core' },
              { const: 'web', title: 'Web' }
            ]
          },
          remote: { type: 'boolean', title: 'Works remotely', default: true }
        },
        required: ['name']
      }
    }
  })
  try {
    const base = settingsFor('fake-openai', app.fakeModel) as Record<string, unknown>
    const mcp = [{ name: 'badges', url: remote.url }]
    writeFileSync(app.settingsFile, stringify({ ...base, permissions: { mode: 'allow' }, mcp }))
    app.fakeModel.setScript([
      {
        text: 'Asking the badge server.',
        toolCalls: [{ name: 'mcp__badges__ask', input: { message: 'Who is the badge for?' } }]
      },
      { text: 'Printing it.', toolCalls: [{ name: 'mcp__badges__slow', input: { steps: 3 } }] },
      { text: 'The badge server has what it needs.' }
    ])
    await app.openFolder(page)
    await sendMessage(page, 'Print me a badge')
    const dialog = page.getByTestId('elicitation-dialog')
    await expect(dialog).toBeVisible({ timeout: 30_000 })
    await dialog.getByTestId('elicitation-field-name').fill('Ada Lovelace')
    await dialog.getByTestId('elicitation-field-team').selectOption('web')
    await app.screenshot(page, 'mcp-elicitation-01-form')
    await dialog.getByTestId('elicitation-submit').click()
    const progress = toolCards(page, 'mcp__badges__slow').getByTestId('tool-progress')
    await expect(progress).toContainText('3 of 3')
    await app.screenshot(page, 'mcp-elicitation-02-progress')
    remote.release()
    await waitForTurnEnd(page)
    await openCard(page, 'mcp__badges__ask')
    await app.screenshot(page, 'mcp-elicitation-03-answered')
  } finally {
    await remote.close()
  }
})

// mcp-oauth.spec.ts
test('signing in to a remote server: needed, the browser back, signed in, lost', async ({
  page,
  app
}) => {
  const as = await startOAuthMcpServer()
  try {
    app.fakeModel.setScript([
      { text: 'Echoing.', toolCalls: [{ name: 'mcp__secure__echo', input: { text: 'hello' } }] },
      (req) => ({ text: `It said: ${plain(latestToolResults(req)[0]?.content ?? '')}` })
    ])
    await app.openFolder(page)
    await page.getByTestId('settings-button').click()
    await page.getByTestId('mcp-add-button').click()
    await page.getByTestId('mcp-name').fill('secure')
    await page.getByTestId('mcp-kind-url').check()
    await page.getByTestId('mcp-url').fill(as.mcpUrl)
    await page.getByTestId('mcp-apply').click()
    await page.getByTestId('provider-save-button').click()
    const row = page.locator('[data-testid="mcp-server"][data-name="secure"]')
    await expect(row).toHaveAttribute('data-state', 'needs-sign-in', { timeout: 30_000 })
    await row.scrollIntoViewIfNeeded()
    await app.screenshot(page, 'mcp-oauth-01-needs-sign-in')
    const popup = page.waitForEvent('popup')
    await row.getByTestId('mcp-sign-in').click()
    const tab = await popup
    await expect(tab.locator('h1')).toHaveText('Signed in to secure', { timeout: 30_000 })
    // Mecatl's own small page, not the app: one picture, as the browser shows it.
    await tab.screenshot({ path: path.join(artifactsDir, 'mcp-oauth-02-browser-back.png') })
    await tab.close()
    await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
    await row.scrollIntoViewIfNeeded()
    await app.screenshot(page, 'mcp-oauth-03-signed-in')
    await page.getByTestId('settings-close').click()

    as.revokeAllRefreshTokens()
    as.expireAllAccessTokens()
    await sendMessage(page, 'Echo hello through the secure server')
    await page.getByTestId('approval-allow').click()
    await waitForTurnEnd(page)
    await expect(page.getByTestId('mcp-sign-in-notice')).toContainText('sign in again')
    await app.screenshot(page, 'mcp-oauth-04-login-lost')
  } finally {
    await as.close()
  }
})
