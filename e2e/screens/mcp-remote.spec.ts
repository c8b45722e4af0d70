// A remote MCP server's screens, photographed in both themes and checked with axe-core in both:
// a project's remote server waiting for trust, its resources in the message box, one added in
// Settings (refused, then ready) and its call's approval. What they do is proved by
// mcp-remote.spec.ts.
import { latestToolResults } from '../../testing/fake-model-server'
import { startRemoteMcpServer } from '../../testing/remote-mcp-server'
import { expect, test } from '../fixtures/app'
import { plain, sendMessage, waitForTurnEnd } from '../fixtures/chat'
import { writeProjectSettings } from '../fixtures/workspace'

const key = 'e2e-remote-key-5d1c'
// The header reads the key from the app server's environment.
test.use({ serverEnv: { MECATL_E2E_REMOTE_KEY: key } })

// mcp-remote.spec.ts
test('a project’s remote server, its resources, and one added in Settings and called', async ({
  page,
  app
}) => {
  const remote = await startRemoteMcpServer({
    mode: 'streamable',
    requireHeader: { name: 'x-api-key', value: key }
  })
  try {
    const headers = { 'X-Api-Key': '${env:MECATL_E2E_REMOTE_KEY}' }
    writeProjectSettings(app.workspace, {
      mcp: [{ name: 'team-remote', url: remote.url, headers }]
    })
    app.fakeModel.setScript([
      { text: 'The note says hello.' },
      { text: 'Echoing.', toolCalls: [{ name: 'mcp__remote__echo', input: { text: 'hi' } }] },
      (req) => ({
        text: `The server answered: ${plain(latestToolResults(req)[0]?.content ?? '')}`
      })
    ])
    await app.openFolder(page)
    await expect(page.getByTestId('mcp-trust-server')).toContainText(remote.url)
    await app.screenshot(page, 'mcp-remote-04-trust')
    await page.getByTestId('mcp-trust-accept').click()
    await page.getByTestId('settings-button').click()
    const team = page.locator('[data-testid="mcp-server"][data-name="team-remote"]')
    await expect(team).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
    await page.getByTestId('settings-close').click()
    const input = page.getByTestId('composer-input')
    await input.click()
    await input.pressSequentially('Summarise @team-remote:hel')
    await expect(page.getByTestId('mention-finder').getByTestId('mention-item')).toHaveCount(1)
    await app.screenshot(page, 'mcp-remote-05-resource-mention')
    await input.press('Enter')
    await page.getByTestId('send-button').click()
    await waitForTurnEnd(page)
    await page.getByTestId('attach-resource-button').click()
    const picker = page.getByTestId('resource-picker')
    await expect(picker.getByTestId('resource-picker-entry')).toHaveCount(2)
    await app.screenshot(page, 'mcp-remote-06-resource-picker')
    await page.keyboard.press('Escape')
    await expect(picker).toBeHidden()

    await page.getByTestId('settings-button').click()
    await page.getByTestId('mcp-add-button').click()
    await page.getByTestId('mcp-name').fill('remote')
    await page.getByTestId('mcp-kind-url').check()
    await page.getByTestId('mcp-url').fill(remote.url.replace('127.0.0.1', 'mcp.example.com'))
    await page.getByTestId('mcp-headers').fill(`X-Api-Key: ${key}`)
    await page.getByTestId('mcp-apply').click()
    await expect(page.getByTestId('mcp-issue-url')).toContainText('must use https')
    await page.getByTestId('mcp-form').scrollIntoViewIfNeeded()
    await app.screenshot(page, 'mcp-remote-01-refused')
    await page.getByTestId('mcp-url').fill(remote.url)
    await page.getByTestId('mcp-headers').fill('X-Api-Key: ${env:MECATL_E2E_REMOTE_KEY}')
    await page.getByTestId('mcp-apply').click()
    await page.getByTestId('provider-save-button').click()
    const row = page.locator('[data-testid="mcp-server"][data-name="remote"]')
    await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
    await row.getByTestId('mcp-tab-tools').click()
    await row.scrollIntoViewIfNeeded()
    await app.screenshot(page, 'mcp-remote-02-ready')
    await page.getByTestId('settings-close').click()
    await page.getByTestId('new-session-button').click()
    await sendMessage(page, 'Echo something through the remote server')
    await expect(page.getByTestId('approval-capabilities')).toContainText('Egress: blind')
    await app.screenshot(page, 'mcp-remote-03-approval')
    await page.getByTestId('approval-allow').click()
    await waitForTurnEnd(page)
  } finally {
    await remote.close()
  }
})
