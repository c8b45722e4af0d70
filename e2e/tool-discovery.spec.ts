// The model picker shows each model's context window and image support (the DiscoverModels
// inventory), and a session started "without files" offers no file or shell tools.
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

test('a session without files, and a model picker that shows what each model can do', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { toolCalls: [{ name: 'Read', input: { path: 'README.md' } }] },
    { text: 'I cannot read files in this session.' }
  ])
  await app.openFolder(page)

  // The default model of the fake provider: 128k tokens, no images.
  const picker = page.getByTestId('model-picker')
  await expect(picker.locator('option', { hasText: 'fake-model · 128k' })).toHaveCount(1)

  const sessions = page.getByTestId('session-item')
  const before = await sessions.count()
  await page.getByTestId('new-session-menu').click()
  await page.getByTestId('new-session-no-fs').click()
  await expect(sessions).toHaveCount(before + 1)
  await expect(page.getByTestId('session-profile')).toHaveText('No files')

  await sendMessage(page, 'Read the README')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'I cannot read files in this session.'
  )
  await waitForTurnEnd(page)

  const [request, answer] = app.fakeModel.chatRequests()
  const fileTools = ['Read', 'Write', 'Edit', 'ListDir', 'Glob', 'Grep', 'Shell']
  expect(request?.tools.filter((name) => fileTools.includes(name))).toEqual([])
  expect(request?.tools).toContain('DiscoverModels')
  const result = answer?.messages.at(-1)?.toolResults?.[0]?.content ?? ''
  expect(result).toContain('no-fs profile')
})
