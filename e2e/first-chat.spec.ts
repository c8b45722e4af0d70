// The first thing a person does: open a folder, ask for a file, approve (or refuse) the Write.
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import type { SettingsPreset } from './fixtures/app'
import { plain, readWorkspaceFile, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

const fileContent = 'Hello from Mecatl\nsecond line\n'
const writeHello = {
  text: 'I will create `hello.txt` for you.',
  toolCalls: [{ name: 'Write', input: { path: 'hello.txt', content: fileContent } }],
  usage: { input: 1200, output: 40, cached: 1000 }
}

// The same flow over both wire formats the app speaks: OpenAI-compatible and Anthropic.
for (const preset of ['fake-openai', 'fake-anthropic'] satisfies SettingsPreset[]) {
  test.describe(preset, () => {
    test.use({ settingsPreset: preset })

    test('welcome → open folder → send → approve a Write → the file exists and the reply goes on', async ({
      page,
      app
    }) => {
      app.fakeModel.setScript([
        writeHello,
        // The follow-up quotes the tool result, which proves it reached the model.
        (req) => ({
          text: `Tool result seen: ${plain(latestToolResults(req)[0]?.content ?? 'none')}`,
          usage: { input: 1300, output: 10, cached: 1200 }
        })
      ])

      await page.goto(app.url)
      await expect(page.getByTestId('folder-path-input')).toBeVisible()
      await app.openFolder(page)

      await sendMessage(page, 'Please create hello.txt with a greeting')
      const modal = page.getByTestId('approval-modal')
      await expect(modal).toBeVisible()
      await expect(modal).toContainText('Write')
      await expect(modal).toContainText('hello.txt')
      await expect(toolCards(page, 'Write')).toHaveAttribute('data-state', 'awaiting-approval')
      expect(readWorkspaceFile(app.workspace, 'hello.txt')).toBeNull()

      await page.getByTestId('approval-allow').click()
      await expect(modal).toBeHidden()
      await expect(toolCards(page, 'Write')).toHaveAttribute('data-state', 'done')
      await expect(page.getByTestId('message-assistant').last()).toContainText(
        'Tool result seen: Created hello.txt'
      )
      await waitForTurnEnd(page)
      expect(readWorkspaceFile(app.workspace, 'hello.txt')).toBe(fileContent)
      const usage = page.getByTestId('turn-usage').last()
      await expect(usage).toBeVisible()
      // The turn's usage is the sum over its two requests. Only checked for OpenAI: there
      // prompt_tokens includes the cached ones, while Anthropic's input_tokens excludes them.
      if (preset === 'fake-openai')
        await expect(usage).toHaveText('2,500 in · 50 out · 2,200 cached')

      expect(app.fakeModel.exhaustedRequests()).toEqual([])
      expect(app.fakeModel.remainingSteps()).toBe(0)
      expect(app.fakeModel.chatRequests()[0]?.tools).toContain('Write')
    })
  })
}

test('deny with a reason → no file, and the model is told why', async ({ page, app }) => {
  const reason = 'Not now: put greetings in README.md instead'
  app.fakeModel.setScript([
    writeHello,
    (req) => ({
      text: `Understood, I did not write it (${latestToolResults(req).length} result).`
    })
  ])

  await app.openFolder(page)
  await sendMessage(page, 'Please create hello.txt with a greeting')
  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()
  await page.getByTestId('approval-reason').fill(reason)
  await page.getByTestId('approval-deny').click()
  await expect(modal).toBeHidden()

  await expect(toolCards(page, 'Write')).toHaveAttribute('data-state', 'denied')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Understood, I did not write it (1 result).'
  )
  await waitForTurnEnd(page)
  expect(readWorkspaceFile(app.workspace, 'hello.txt')).toBeNull()

  const [result] = app.fakeModel.lastToolResults()
  expect(result?.name).toBe('Write')
  expect(result?.content).toContain(reason)
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
