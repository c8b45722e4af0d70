// A turn's screens, photographed in both themes and checked with axe-core in both: stopped, a
// retry waiting, a compaction opened, a session without files, and thinking over the Anthropic
// wire format. What they do is proved by the functional specs named above each test.
import { gate } from '../../testing/fake-model-server'
import { expect, test } from '../fixtures/app'
import { sendMessage, waitForTurnEnd } from '../fixtures/chat'

// stop.spec.ts, retries.spec.ts, compaction.spec.ts, tool-discovery.spec.ts
test('a turn stopped, a retry waiting, a compaction opened, a session without files', async ({
  page,
  app
}) => {
  const limited = {
    status: 429,
    error: 'rate limited by the fake model',
    headers: { 'retry-after': '30', 'x-should-retry': 'true' }
  }
  app.fakeModel.setScript([
    { text: 'This reply is held mid-stream so that Stop can end it.', holdUntil: gate().opened },
    limited,
    {
      toolCalls: [
        { name: 'Todo', input: { items: [{ text: 'Tidy the notes', status: 'in_progress' }] } }
      ]
    },
    { text: 'Planned.' },
    { toolCalls: [{ name: 'Compact', input: {} }] },
    { text: 'The person planned to tidy the notes; nothing else happened yet.' },
    { text: 'Compacted.' },
    { toolCalls: [{ name: 'Read', input: { path: 'README.md' } }] },
    { text: 'I cannot read files in this session.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Tell me something long')
  await expect(page.getByTestId('message-assistant').last()).toContainText('This reply')
  await page.getByTestId('stop-button').click()
  await expect(page.getByTestId('turn-stopped')).toBeVisible()
  await waitForTurnEnd(page)
  await app.screenshot(page, 'stop-01-stopped')

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Hello')
  await expect(page.getByTestId('retry-notice')).toContainText('(rate limited)…')
  await app.screenshot(page, 'retries-01-waiting')
  await page.getByTestId('retry-stop').click()
  await waitForTurnEnd(page)

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Make a plan')
  await waitForTurnEnd(page)
  await sendMessage(page, 'Now compact the conversation')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Compacted.')
  await waitForTurnEnd(page)
  await page.getByTestId('compaction').locator('summary').click()
  await expect(page.getByTestId('compaction-summary')).toContainText('Tidy the notes')
  await app.screenshot(page, 'compaction-01-summary-open')

  await page.getByTestId('new-session-menu').click()
  await app.screenshot(page, 'tool-discovery-01-new-session-menu')
  await page.getByTestId('new-session-no-fs').click()
  await expect(page.getByTestId('session-profile')).toHaveText('No files')
  await sendMessage(page, 'Read the README')
  await expect(page.getByTestId('message-assistant').last()).toContainText('cannot read files')
  await waitForTurnEnd(page)
  await app.screenshot(page, 'tool-discovery-02-no-fs-session')
})

// thinking.spec.ts
test.describe('over the Anthropic wire format', () => {
  test.use({ settingsPreset: 'fake-anthropic' })

  test('the reasoning picker, and thinking folded and opened on a reply', async ({ page, app }) => {
    app.fakeModel.setScript([
      {
        thinking: ['The person asks what the README says. Reading it is cheaper than guessing.'],
        text: 'Let me read the README.',
        toolCalls: [{ name: 'Read', input: { path: 'README.md' } }]
      },
      { thinking: ['It is the sample project.'], text: 'The README describes a sample project.' }
    ])
    await app.openFolder(page)
    const picker = page.getByTestId('reasoning-picker')
    await picker.selectOption('budget:4096')
    await expect(picker).toHaveValue('budget:4096')
    await app.screenshot(page, 'thinking-00-picker')
    await sendMessage(page, 'What does the README say?')
    await expect(page.getByTestId('message-assistant').last()).toContainText('sample project')
    await waitForTurnEnd(page)
    const blocks = page.getByTestId('thinking')
    await expect(blocks).toHaveCount(2)
    await app.screenshot(page, 'thinking-01-collapsed')
    await blocks.first().locator('summary').click()
    await expect(blocks.first().getByTestId('thinking-text')).toBeVisible()
    await app.screenshot(page, 'thinking-02-open')
  })
})
