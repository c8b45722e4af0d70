// MCP servers: add the real server-everything in Settings, watch it start, let the model call it,
// use its prompt as a slash command; and a project's own server waits for the person's trust.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parse, stringify } from 'yaml'
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { plain, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'
import { everythingScript } from './fixtures/workspace'

test('add server-everything in Settings, see it ready with its tools, and the model calls one', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'Asking the MCP server to echo.',
      toolCalls: [{ name: 'mcp__everything__echo', input: { message: 'hello from MCP' } }]
    },
    (req) => ({
      text: `The server answered: ${plain(latestToolResults(req)[0]?.content ?? 'nothing')}`
    })
  ])
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  const section = page.getByTestId('mcp-section')
  await expect(section).toBeVisible()
  await expect(section).toContainText('No MCP server yet.')

  await page.getByTestId('mcp-add-button').click()
  await page.getByTestId('mcp-name').fill('everything')
  await page.getByTestId('mcp-command').fill(process.execPath)
  await page.getByTestId('mcp-args').fill(`${everythingScript}\nstdio`)
  await page.getByTestId('mcp-passthrough').fill('LD_PRELOAD')
  await page.getByTestId('mcp-apply').click()
  // Refused in place, with what to do, before it is even in the draft.
  await expect(page.getByTestId('mcp-issue-passthrough')).toContainText(
    'remove it from env_passthrough'
  )
  await page.getByTestId('mcp-passthrough').fill('')
  await page.getByTestId('mcp-apply').click()
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')

  const row = page.locator('[data-testid="mcp-server"][data-name="everything"]')
  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
  await expect(row.getByTestId('mcp-state')).toContainText(/Ready · \d+ tools/)
  expect(parse(readFileSync(app.settingsFile, 'utf8'))).toMatchObject({
    mcp: [{ name: 'everything', command: process.execPath, args: [everythingScript, 'stdio'] }]
  })

  await row.getByTestId('mcp-tab-tools').click()
  const echo = row.locator('[data-testid="mcp-tool"][data-tool="mcp__everything__echo"]')
  await expect(echo).toContainText('Read-only')
  await expect(
    row.locator('[data-testid="mcp-tool"][data-tool="mcp__everything__gzip-file-as-resource"]')
  ).toContainText('Untrusted input')

  await row.getByTestId('mcp-tab-prompts').click()
  await expect(row.getByTestId('mcp-prompts')).toContainText('/mcp__everything__simple-prompt')
  await row.getByTestId('mcp-tab-log').click()
  // The server's stderr is kept as its log, tagged with its name.
  await expect(row.getByTestId('mcp-log')).toContainText(
    '[everything] Starting default (STDIO) server'
  )

  await page.getByTestId('settings-close').click()
  await sendMessage(page, 'Echo something through MCP')
  await expect(toolCards(page, 'mcp__everything__echo')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'The server answered: Echo: hello from MCP'
  )
  await waitForTurnEnd(page)
  expect(app.fakeModel.chatRequests()[0]?.tools).toContain('mcp__everything__echo')
  await toolCards(page, 'mcp__everything__echo').locator('.tool-card__header').click()
  await expect(toolCards(page, 'mcp__everything__echo')).toContainText('Echo: hello from MCP')

  // The server's prompts are slash commands in the chat input.
  await page.getByTestId('composer-input').fill('/mcp__everything__s')
  const palette = page.getByTestId('prompt-palette')
  await expect(palette).toContainText('/mcp__everything__simple-prompt')
  await palette.getByText('/mcp__everything__simple-prompt').click()
  await expect(page.getByTestId('composer-input')).toHaveValue(
    'This is a simple prompt without arguments.'
  )
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})

test('a project’s own MCP server starts only after the person trusts it', async ({ page, app }) => {
  const projectSettings = path.join(app.workspace, '.mecatl', 'settings.yaml')
  mkdirSync(path.dirname(projectSettings), { recursive: true })
  writeFileSync(
    projectSettings,
    stringify({
      mcp: [{ name: 'repo-tools', command: process.execPath, args: [everythingScript] }]
    })
  )

  await app.openFolder(page)
  const prompt = page.getByTestId('mcp-trust-prompt')
  await expect(prompt).toBeVisible()
  await expect(prompt.getByTestId('mcp-trust-server')).toContainText(
    `${process.execPath} ${everythingScript}`
  )

  await page.getByTestId('mcp-trust-accept').click()
  await expect(prompt).toBeHidden()
  await page.getByTestId('settings-button').click()
  const row = page.locator('[data-testid="mcp-server"][data-name="repo-tools"]')
  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
  await expect(row).toContainText('Project')
  // Approvals are kept per folder (the data directory holds other folders' too).
  const trusted = JSON.parse(readFileSync(path.join(app.home, 'mcp-trust.json'), 'utf8')) as Record<
    string,
    Record<string, string>
  >
  expect(Object.keys(trusted[realpathSync(app.workspace)] ?? {})).toEqual(['repo-tools'])
})
