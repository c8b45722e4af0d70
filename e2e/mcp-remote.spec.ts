// A remote MCP server, added in Settings → MCP: reached over streamable HTTP (the SDK's own server
// transport on 127.0.0.1), a header's secret by reference, its tools marked as sending off the
// machine, and the model calling one. A project's remote server waits for trust like a program,
// and one of its resources is attached to a message through `@server:` in the box.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parse, stringify } from 'yaml'
import { latestToolResults } from '../testing/fake-model-server'
import {
  HELLO_TEXT,
  startRemoteMcpServer,
  type RemoteMcpServer
} from '../testing/remote-mcp-server'
import { expect, test } from './fixtures/app'
import { plain, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

const KEY = 'e2e-remote-key-5d1c'
// The header reads the key from the app server's environment.
test.use({ serverEnv: { MECATL_E2E_REMOTE_KEY: KEY } })

let remote: RemoteMcpServer
test.beforeEach(async () => {
  remote = await startRemoteMcpServer({
    mode: 'streamable',
    requireHeader: { name: 'x-api-key', value: KEY }
  })
})
test.afterEach(async () => {
  await remote.close()
})

test('add a remote server in Settings, see it ready over streamable HTTP, and the model calls it', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'Asking the remote server to echo.',
      toolCalls: [{ name: 'mcp__remote__echo', input: { text: 'hello over HTTP' } }]
    },
    (req) => ({
      text: `The server answered: ${plain(latestToolResults(req)[0]?.content ?? 'nothing')}`
    })
  ])
  await app.openFolder(page)
  await page.getByTestId('settings-button').click()
  await page.getByTestId('mcp-add-button').click()
  await page.getByTestId('mcp-name').fill('remote')
  await page.getByTestId('mcp-kind-url').check()
  await expect(page.getByTestId('mcp-command')).toBeHidden()
  await page.getByTestId('mcp-url').fill(remote.url.replace('127.0.0.1', 'mcp.example.com'))
  await page.getByTestId('mcp-headers').fill(`X-Api-Key: ${KEY}`)
  await page.getByTestId('mcp-apply').click()
  // Refused in place: plain http off this machine, and a credential written in clear.
  await expect(page.getByTestId('mcp-issue-url')).toContainText('must use https')
  await expect(page.getByTestId('mcp-issue-headers')).toContainText(
    'never written in the settings file in clear'
  )

  await page.getByTestId('mcp-url').fill(remote.url)
  await page.getByTestId('mcp-headers').fill('X-Api-Key: ${env:MECATL_E2E_REMOTE_KEY}')
  await page.getByTestId('mcp-apply').click()
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')

  const row = page.locator('[data-testid="mcp-server"][data-name="remote"]')
  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
  await expect(row.getByTestId('mcp-transport-badge')).toHaveText('Streamable HTTP')
  await expect(row).toContainText(remote.url)
  const written = readFileSync(app.settingsFile, 'utf8')
  expect(parse(written)).toMatchObject({
    mcp: [
      { name: 'remote', url: remote.url, headers: { 'X-Api-Key': '${env:MECATL_E2E_REMOTE_KEY}' } }
    ]
  })
  expect(written).not.toContain(KEY)
  await row.getByTestId('mcp-tab-tools').click()
  // What the model passes a remote tool leaves the machine.
  await expect(
    row.locator('[data-testid="mcp-tool"][data-tool="mcp__remote__echo"]')
  ).toContainText('Egress: blind')
  // A tool switched off is not offered to the model; the switch is a draft until Save.
  const slow = row.locator('[data-testid="mcp-tool"][data-tool="mcp__remote__slow"]')
  await slow.getByTestId('mcp-tool-enabled').uncheck()
  await page.getByTestId('provider-save-button').click()
  await expect(page.getByTestId('settings-save-status')).toHaveText('Saved')
  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
  // The Tools tab stays open across the restart the saved change makes.
  await expect(row.locator('[data-testid="mcp-tool-off"][data-tool="slow"]')).toContainText(
    'Off: not offered to the model'
  )
  expect(parse(readFileSync(app.settingsFile, 'utf8'))).toMatchObject({
    mcp: [{ name: 'remote', disabled_tools: ['slow'] }]
  })

  await page.getByTestId('settings-close').click()
  await sendMessage(page, 'Echo something through the remote server')
  // Not read-only by its hints, so ask mode asks; the dialog says what it sends and where.
  const dialog = page.getByTestId('approval-modal')
  await expect(dialog.getByTestId('approval-capabilities')).toContainText('Egress: blind')
  await page.getByTestId('approval-allow').click()
  await expect(toolCards(page, 'mcp__remote__echo')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'The server answered: hello over HTTP'
  )
  await waitForTurnEnd(page)
  expect(remote.unauthorized).toEqual([])
  expect(app.fakeModel.chatRequests()[0]?.tools).not.toContain('mcp__remote__slow')
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})

test('a project’s remote server is shown by its address, waits for trust, and its resource is attached', async ({
  page,
  app
}) => {
  const projectSettings = path.join(app.workspace, '.mecatl', 'settings.yaml')
  mkdirSync(path.dirname(projectSettings), { recursive: true })
  writeFileSync(
    projectSettings,
    stringify({
      mcp: [
        {
          name: 'team-remote',
          url: remote.url,
          headers: { 'X-Api-Key': '${env:MECATL_E2E_REMOTE_KEY}' }
        }
      ]
    })
  )
  await app.openFolder(page)
  const prompt = page.getByTestId('mcp-trust-prompt')
  await expect(prompt).toBeVisible()
  await expect(prompt.getByTestId('mcp-trust-server')).toContainText(remote.url)
  await expect(prompt.getByTestId('mcp-trust-server')).toContainText('with the headers X-Api-Key')
  // Nothing was sent before the person decided.
  expect(remote.requests).toEqual([])
  await page.getByTestId('mcp-trust-accept').click()
  await expect(prompt).toBeHidden()
  await page.getByTestId('settings-button').click()
  const row = page.locator('[data-testid="mcp-server"][data-name="team-remote"]')
  await expect(row).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
  await page.getByTestId('settings-close').click()

  // Its resources are attached from the box: `@` offers the server, `@team-remote:` its notes.
  app.fakeModel.setScript([{ text: 'The note says hello.' }])
  const input = page.getByTestId('composer-input')
  const finder = page.getByTestId('mention-finder')
  await input.click()
  await input.pressSequentially('Summarise @team')
  await expect(finder.locator('[data-kind="server"]')).toContainText('team-remote:')
  await input.press('Enter')
  await expect(input).toHaveValue('Summarise @team-remote:')
  await input.pressSequentially('hel')
  await expect(finder.getByTestId('mention-item')).toHaveCount(1)
  await expect(finder.getByTestId('mention-item')).toHaveAttribute('data-uri', 'note://hello')
  await input.press('Enter')
  await expect(input).toHaveValue('Summarise @team-remote:note://hello ')
  const chip = page.getByTestId('composer-attachments').getByTestId('attachment-chip')
  await expect(chip).toHaveText('team-remote: hello')
  await page.getByTestId('send-button').click()
  const message = page.getByTestId('message-user').last()
  await expect(message.getByTestId('attachment-chip')).toHaveAttribute('data-kind', 'resource')
  await expect(message.getByTestId('attachment-chip')).toContainText('team-remote: hello')
  await waitForTurnEnd(page)
  // A server's data from outside: private and untrusted, so the header says sends are refused.
  await expect(page.getByTestId('taint-badge')).toContainText('Private + untrusted')
  const asked = JSON.stringify(app.fakeModel.chatRequests().at(-1)?.messages ?? [])
  expect(asked).toContain(HELLO_TEXT)
  expect(asked).toContain('untrusted content from outside this conversation')

  // Or from Attach resource in the box: the ready servers' resources, said to be untrusted.
  await page.getByTestId('attach-resource-button').click()
  const picker = page.getByTestId('resource-picker')
  await expect(picker.getByTestId('resource-picker-entry')).toHaveCount(2)
  await expect(picker).toContainText('untrusted content')
  await picker.locator('[data-testid="resource-picker-entry"][data-uri="note://todo"]').click()
  await expect(picker).toBeHidden()
  await expect(chip).toHaveText('team-remote: todo')
})
