// The message box's screens, photographed in both themes and checked with axe-core in both:
// attachments, the `@` finder, copying, the queue, a paste too large, branches, slash commands,
// skills and AskUser. What each screen does is proved by the functional spec named above its test.
import { writeFileSync } from 'node:fs'
import { stringify } from 'yaml'
import { writeFileTree } from '../../testing/file-tree'
import { gate, latestToolResults, latestUserText } from '../../testing/fake-model-server'
import { expect, settingsFor, test } from '../fixtures/app'
import { pastePng, twoModels } from '../fixtures/attachments'
import { sendMessage, waitForTurnEnd } from '../fixtures/chat'
import { writeFiles } from '../fixtures/workspace'

// composer-attach.spec.ts
test('attachments: an image in the box, sent, refused; a file picked and sent', async ({
  page,
  app
}) => {
  twoModels(app)
  app.fakeModel.setScript([
    { text: 'A gradient from dark to light.' },
    { text: 'I will read src/greet.ts first.' }
  ])
  await app.openFolder(page)
  const box = page.getByTestId('composer-attachments')
  await pastePng(page)
  await expect(box.getByTestId('attachment-chip')).toHaveCount(1)
  await page.getByTestId('composer-input').fill('What is in this picture?')
  await app.screenshot(page, 'composer-attach-01-image-in-box')
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('A gradient')
  await waitForTurnEnd(page)
  await app.screenshot(page, 'composer-attach-02-image-sent')

  await page.getByTestId('new-session-button').click()
  await expect(page.getByTestId('chat-empty')).toBeVisible()
  await page.getByTestId('model-picker').selectOption('fake\u0000fake-text')
  await expect(page.getByTestId('model-picker')).toHaveValue('fake\u0000fake-text')
  await pastePng(page)
  await page.getByTestId('composer-input').fill('Describe it')
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('attach-error')).toBeVisible()
  await app.screenshot(page, 'composer-attach-03-refused')
  await page.getByTestId('attachment-remove').click()
  await page.getByTestId('composer-input').fill('')

  await page.getByTestId('attach-file-button').click()
  const picker = page.getByTestId('file-picker')
  await picker.getByTestId('file-picker-entry').filter({ hasText: 'src/' }).click()
  await expect(picker.getByTestId('file-picker-path')).toHaveText('/src')
  await app.screenshot(page, 'composer-attach-04-picker')
  await picker.getByTestId('file-picker-entry').filter({ hasText: 'greet.ts' }).click()
  await page.getByTestId('composer-input').fill('Review this')
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('src/greet.ts')
  await waitForTurnEnd(page)
  await app.screenshot(page, 'composer-attach-05-file-sent')
})

// composer-mention.spec.ts (its 100,000 files prove the speed; a few thousand fill the list)
test('the @ finder: a full ranked list, and a file found', async ({ page, app }) => {
  await writeFileTree(app.workspace, { files: 3_000, dirs: 300 })
  writeFiles(app.workspace, { 'packages/needle-zone/src/mention-target.ts': '' })
  await app.openFolder(page)
  const input = page.getByTestId('composer-input')
  const finder = page.getByTestId('mention-finder')
  await input.click()
  await input.pressSequentially('Please read @corerend')
  await expect(finder.getByTestId('mention-item')).toHaveCount(50)
  await app.screenshot(page, 'composer-mention-00-ranked')
  for (let i = 0; i < 'corerend'.length; i++) await input.press('Backspace')
  await input.pressSequentially('mentiontarg')
  await expect(finder.getByTestId('mention-item').first()).toHaveAttribute(
    'data-path',
    'packages/needle-zone/src/mention-target.ts'
  )
  await app.screenshot(page, 'composer-mention-01-finder-open')
})

test.describe('with the clipboard', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

  // composer-queue.spec.ts, browser-mode.spec.ts
  test('copy, the queue held and waiting, a paste too large', async ({ page, app }) => {
    const held = gate()
    app.fakeModel.setScript([
      { text: 'Here is the **fix**:\n\n```ts\nif (a < b) {\n  say("héllo")\n}\n```\n\nDone.' },
      {
        text: 'One question first.',
        toolCalls: [{ name: 'AskUser', input: { question: 'Which?' } }]
      },
      (req) => ({ text: `Answered: ${latestToolResults(req)[0]?.content ?? ''}` }),
      (req) => ({ text: `Queued one: ${latestUserText(req)}` }),
      {
        text: 'This reply is held mid-stream, so that a message can be queued.',
        holdUntil: held.opened
      },
      (req) => ({ text: `Later: ${latestUserText(req)}` })
    ])
    await app.openFolder(page)
    await sendMessage(page, 'Fix the loop')
    await waitForTurnEnd(page)
    const block = page.getByTestId('code-block').first()
    await block.getByTestId('copy-code').click()
    await expect(block.getByTestId('copy-code')).toContainText('Copied')
    await app.screenshot(page, 'composer-queue-01-code-block')
    const replyRow = page.locator('.message-row[data-kind="assistant"]').last()
    await replyRow.hover()
    await replyRow.getByTestId('copy-message').click()
    await expect(replyRow.getByTestId('message-actions')).toContainText('Copied')
    await app.screenshot(page, 'composer-queue-02-hover-actions')
    const userRow = page.locator('.message-row[data-kind="user"]').last()
    await userRow.getByTestId('copy-message').focus()
    await expect(userRow.getByTestId('message-actions')).toHaveCSS('opacity', '1')
    await app.screenshot(page, 'composer-queue-02-user-actions')

    await page.getByTestId('new-session-button').click()
    await sendMessage(page, 'Write a note')
    const card = page.getByTestId('question-card')
    await expect(card).toContainText('Which?')
    const input = page.getByTestId('composer-input')
    await input.fill('And then list the notes folder')
    await input.press('Enter')
    await expect(page.getByTestId('queued-text')).toHaveText(['And then list the notes folder'])
    await app.screenshot(page, 'composer-queue-03-queue')
    await card.getByTestId('question-answer-input').fill('notes')
    await card.getByTestId('question-answer-input').press('Enter')
    await expect(page.getByTestId('message-assistant').last()).toContainText('Queued one')
    await waitForTurnEnd(page)

    await page.getByTestId('new-session-button').click()
    await sendMessage(page, 'Tell me something long')
    await expect(page.getByTestId('message-assistant').last()).toContainText('This reply')
    await input.fill('Only if you finish')
    await expect(page.getByTestId('queue-button')).toBeVisible()
    await app.screenshot(page, 'composer-queue-05-queue-button')
    await input.press('Enter')
    await input.press('Escape')
    await expect(page.getByTestId('queue-hold')).toContainText('The turn was stopped')
    await app.screenshot(page, 'composer-queue-04-held')
    await page.getByTestId('queued-send-now').click()
    await expect(page.getByTestId('message-assistant').last()).toContainText('Later:')
    await waitForTurnEnd(page)

    const line = 'ERROR 2024-05-01T12:00:00Z worker-7 request failed: connection reset by peer\n'
    const paste = line.repeat(Math.floor((3.2 * 1024 * 1024) / line.length))
    await page.evaluate((text) => {
      const { clipboard } = (
        globalThis as unknown as {
          navigator: { clipboard: { writeText(t: string): Promise<void> } }
        }
      ).navigator
      return clipboard.writeText(text)
    }, paste)
    await input.focus()
    await page.keyboard.press('Control+V')
    const warning = page.getByTestId('message-too-large')
    await expect(warning).toContainText('This message is 3.2 MB')
    await app.screenshot(page, 'browser-mode-01-paste-too-large')
    await page.setViewportSize({ width: 900, height: 700 })
    await expect(warning).toBeInViewport()
    await app.screenshot(page, 'browser-mode-02-paste-too-large-narrow')
  })
})

// branches.spec.ts, composer-queue.spec.ts
test('an edit as a new branch, a retry offered, and Copy without clipboard access', async ({
  page,
  app
}) => {
  await page.addInitScript(() => {
    // Runs in the page: no Clipboard API, and the selection copy refused, as on a locked-down box.
    const dom = globalThis as unknown as {
      Navigator: { prototype: object }
      document: { execCommand: () => boolean }
    }
    Object.defineProperty(dom.Navigator.prototype, 'clipboard', { get: () => undefined })
    dom.document.execCommand = () => false
  })
  const base = settingsFor('fake-openai', app.fakeModel) as Record<string, unknown>
  writeFileSync(app.settingsFile, stringify({ ...base, provider_max_retries: 0 }))
  app.fakeModel.setScript([
    { text: 'Reply one.' },
    { text: 'Reply two.' },
    { text: 'Reply to the edit.' },
    { status: 500, error: 'the fake model broke' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'first')
  await waitForTurnEnd(page)
  await sendMessage(page, 'second')
  await waitForTurnEnd(page)
  await page.getByTestId('message-user').last().hover()
  await page.getByTestId('edit-message').last().click()
  await page.getByTestId('message-editor-input').fill('second, said better')
  await app.screenshot(page, 'branches-01-editing')
  await page.getByTestId('message-editor-send').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('Reply to the edit.')
  await waitForTurnEnd(page)
  await expect(page.getByTestId('branch-count')).toHaveText('2 / 2')
  await app.screenshot(page, 'branches-02-second-version')

  const row = page.locator('.message-row[data-kind="assistant"]').last()
  await row.hover()
  await row.getByTestId('copy-message').click()
  await expect(row.getByTestId('copy-failed')).toContainText('Could not copy')
  await app.screenshot(page, 'composer-queue-06-copy-failed')

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'please work')
  await expect(page.getByTestId('retry-turn')).toBeVisible()
  await app.screenshot(page, 'branches-03-retry-offered')
})

// skills.spec.ts
test('slash commands, a skill expanded, /help, the skills in Settings, AskUser', async ({
  page,
  app
}) => {
  writeFiles(app.workspace, {
    'AGENTS.md': 'Answer in haiku.\n',
    '.claude/commands/review.md':
      '---\ndescription: Review a file for bugs\n---\nReview $ARGUMENTS for bugs and unclear names.\n',
    '.mecatl/skills/release-notes/SKILL.md':
      '---\nname: release-notes\ndescription: Write release notes grouped by area\n---\nGroup the changes by area.',
    '.mecatl/skills/broken/SKILL.md': '---\nname: broken\ndescription: [oops\n---\n',
    '.mecatl/commands/help.md': 'shadowed by the built-in\n'
  })
  app.fakeModel.setScript([
    (req) => ({ text: `Skill prompt: ${latestUserText(req)}` }),
    {
      text: 'One question first.',
      toolCalls: [
        {
          name: 'AskUser',
          input: { question: 'Which greeting should I use?', options: ['Hello', 'Good morning'] }
        }
      ]
    },
    { toolCalls: [{ name: 'AskUser', input: { question: 'And whose name goes in it?' } }] },
    (req) => ({ text: `Answers: ${latestToolResults(req)[0]?.content}` })
  ])
  await app.openFolder(page)
  const input = page.getByTestId('composer-input')
  await input.fill('/')
  await expect(page.getByTestId('prompt-palette')).toContainText('/release-notes')
  await app.screenshot(page, 'skills-01-palette')
  await input.fill('/release')
  await input.press('Tab')
  await input.press('Enter')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Skill prompt')
  await waitForTurnEnd(page)
  await app.screenshot(page, 'skills-02-expanded')
  await input.fill('/help')
  await input.press('Enter')
  await expect(page.getByTestId('command-help')).toContainText('/review')
  await app.screenshot(page, 'skills-03-help')
  await input.press('Escape')
  await page.getByTestId('settings-button').click()
  const section = page.getByTestId('skills-section')
  await expect(section.getByTestId('skill-row')).toHaveCount(2)
  await section.scrollIntoViewIfNeeded()
  await app.screenshot(page, 'skills-04-settings')
  await page.getByTestId('settings-close').click()

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Write a greeting')
  const card = page.getByTestId('question-card')
  await expect(card.getByTestId('question-option')).toHaveText(['Hello', 'Good morning'])
  await app.screenshot(page, 'skills-05-ask-user-options')
  await card.getByTestId('question-option').filter({ hasText: 'Good morning' }).click()
  await expect(card).toContainText('And whose name goes in it?')
  await card.getByTestId('question-answer-input').fill('Ada')
  await app.screenshot(page, 'skills-06-ask-user-text')
  await card.getByTestId('question-answer-input').press('Enter')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Answers:')
  await waitForTurnEnd(page)
  await app.screenshot(page, 'skills-07-ask-user-done')
})
