// Copy (a message's Markdown, a code block's code) and typing while the model works: messages
// queued during a turn, edited, removed, held after a stop, and sent now.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { MAX_MESSAGE_BYTES } from '../src/shared/contract/message-size'
import { gate, latestUserText } from '../testing/fake-model-server'
import type { Gate } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

const code = '\tif (a < b && c) {\n  say("héllo 🙂 <b>")  // a `tick`\n}\n\nend()'
const reply = `Here is the **fix**:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAnd a plain one:\n\n\`\`\`\nls -la\n\`\`\``

/** A reply held after its first words, so the turn is still running while we type. */
function held(until: Gate = gate()): { text: string; holdUntil: Promise<void> } {
  return {
    text: 'This reply is held mid-stream, so that a message can be typed while the model is working.',
    holdUntil: until.opened
  }
}

test('Copy puts a message’s Markdown and a code block’s code on the clipboard', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([{ text: reply }])
  await app.openFolder(page)
  const asked = 'Fix the *loop*\n  and keep `tabs`'
  await page.getByTestId('composer-input').fill(asked)
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('And a plain one')
  await waitForTurnEnd(page)
  const clipboard = (): Promise<string> =>
    page.evaluate(() => {
      // Runs in the page; the e2e project is typed for Node, without the DOM's globals.
      const dom = globalThis as unknown as {
        navigator: { clipboard: { readText: () => Promise<string> } }
      }
      return dom.navigator.clipboard.readText()
    })

  // Each fenced block says its language (a bare fence says "text") and copies its code exactly.
  const blocks = page.getByTestId('code-block')
  await expect(blocks).toHaveCount(2)
  await expect(blocks.getByTestId('code-language')).toHaveText(['ts', 'text'])
  await blocks.first().getByTestId('copy-code').click()
  await expect(blocks.first().getByTestId('copy-code')).toContainText('Copied')
  expect(await clipboard()).toBe(code)
  await blocks.last().getByTestId('copy-code').click()
  expect(await clipboard()).toBe('ls -la')

  // The reply's actions show on hover; Copy gives back the Markdown source, not the rendering.
  const replyRow = page.locator('.message-row[data-kind="assistant"]').last()
  await replyRow.hover()
  const copyReply = replyRow.getByTestId('copy-message')
  await expect(copyReply).toHaveAccessibleName('Copy reply as Markdown')
  await copyReply.click()
  await expect(replyRow.getByTestId('message-actions')).toContainText('Copied')
  expect(await clipboard()).toBe(reply)

  // The person's own message, reached with the keyboard.
  const userRow = page.locator('.message-row[data-kind="user"]').last()
  await userRow.getByTestId('copy-message').focus()
  await expect(userRow.getByTestId('message-actions')).toHaveCSS('opacity', '1')
  await page.keyboard.press('Enter')
  await expect.poll(clipboard).toBe(asked)
})

test('without clipboard access Copy says so instead of failing silently', async ({ page, app }) => {
  await page.addInitScript(() => {
    // Runs in the page: no Clipboard API, and the selection copy refused, as on a locked-down box.
    const dom = globalThis as unknown as {
      Navigator: { prototype: object }
      document: { execCommand: () => boolean }
    }
    Object.defineProperty(dom.Navigator.prototype, 'clipboard', { get: () => undefined })
    dom.document.execCommand = () => false
  })
  app.fakeModel.setScript([{ text: 'Nothing to copy here but this.' }])
  await app.openFolder(page)
  await sendMessage(page, 'Say something')
  await waitForTurnEnd(page)
  const row = page.locator('.message-row[data-kind="assistant"]').last()
  await row.hover()
  await row.getByTestId('copy-message').click()
  await expect(row.getByTestId('copy-failed')).toContainText(
    'Could not copy: this window has no clipboard access. Select the text and press Ctrl+C'
  )
})

test('a message typed during a turn is queued, held while a question or approval waits, and sent after', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'One question first.',
      toolCalls: [{ name: 'AskUser', input: { question: 'Which?' } }]
    },
    {
      text: 'Writing it.',
      toolCalls: [{ name: 'Write', input: { path: 'notes/queued.md', content: 'hi\n' } }]
    },
    { text: 'Done writing.' },
    (req) => ({ text: `Queued one: ${latestUserText(req)}` })
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Write a note')
  const card = page.getByTestId('question-card')
  await expect(card).toContainText('Which?')

  // The box stays open while the turn runs, and says what Enter does now.
  const input = page.getByTestId('composer-input')
  await expect(input).toBeEnabled()
  await expect(input).toHaveAttribute('placeholder', /Enter to queue/)
  await expect(page.locator('.composer__hint')).toContainText('Enter to queue')
  await input.fill('And then list the files')
  await input.press('Enter')
  await input.fill('Second in line')
  await page.getByTestId('queue-button').click()
  const queued = page.getByTestId('queued-message')
  await expect(queued.getByTestId('queued-text')).toHaveText([
    'And then list the files',
    'Second in line'
  ])
  await expect(input).toHaveValue('')

  // Remove the second, edit the first (Escape in the edit leaves it without stopping the turn).
  await queued.nth(1).getByTestId('queued-remove').click()
  await queued.first().getByTestId('queued-edit').click()
  await page.getByTestId('queued-edit-input').press('Escape')
  await expect(page.getByTestId('turn-running')).toBeVisible()
  await queued.first().getByTestId('queued-edit').click()
  await page.getByTestId('queued-edit-input').fill('And then list the notes folder')
  await page.getByTestId('queued-edit-input').press('Enter')
  await expect(queued.getByTestId('queued-text')).toHaveText(['And then list the notes folder'])
  expect(app.fakeModel.chatRequests()).toHaveLength(1)

  // Answering lets the turn go on to a change that needs approval: still nothing sent.
  await card.getByTestId('question-answer-input').fill('notes')
  await card.getByTestId('question-answer-input').press('Enter')
  await expect(page.getByTestId('approval-modal')).toBeVisible()
  expect(app.fakeModel.chatRequests()).toHaveLength(2)
  await expect(queued).toHaveCount(1)
  await page.getByTestId('approval-allow').click()

  // The turn ends, and the queued message goes as the next turn.
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Queued one: And then list the notes folder'
  )
  await waitForTurnEnd(page)
  await expect(page.getByTestId('queue')).toHaveCount(0)
  const requests = app.fakeModel.chatRequests()
  expect(requests).toHaveLength(4)
  expect(latestUserText(requests[3]!)).toBe('And then list the notes folder')
  expect(requests.slice(0, 3).map(latestUserText)).toEqual([
    'Write a note',
    'Write a note',
    'Write a note'
  ])
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})

test('Send now stops the turn and sends the queued message at once', async ({ page, app }) => {
  app.fakeModel.setScript([held(), (req) => ({ text: `Now on: ${latestUserText(req)}` })])
  await app.openFolder(page)
  await sendMessage(page, 'Tell me something long')
  await expect(page.getByTestId('message-assistant').last()).toContainText('This reply')
  const input = page.getByTestId('composer-input')
  await input.fill('Actually, do this instead')
  await input.press('Enter')
  await page.getByTestId('queued-send-now').click()

  await expect(page.getByTestId('turn-stopped')).toBeVisible()
  await expect(page.getByTestId('message-user').last()).toHaveText('Actually, do this instead')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Now on: Actually, do this instead'
  )
  await waitForTurnEnd(page)
  await expect(page.getByTestId('queue')).toHaveCount(0)
  const requests = app.fakeModel.chatRequests()
  expect(requests.map(latestUserText)).toEqual([
    'Tell me something long',
    'Actually, do this instead'
  ])
})

test('Escape stops the turn and holds the queue until Send now', async ({ page, app }) => {
  app.fakeModel.setScript([held(), (req) => ({ text: `Later: ${latestUserText(req)}` })])
  await app.openFolder(page)
  await sendMessage(page, 'Tell me something long')
  await expect(page.getByTestId('message-assistant').last()).toContainText('This reply')
  const input = page.getByTestId('composer-input')
  await input.fill('Only if you finish')
  await input.press('Enter')
  await input.press('Escape')

  await expect(page.getByTestId('turn-stopped')).toBeVisible()
  await waitForTurnEnd(page)
  await expect(page.getByTestId('queue-hold')).toContainText('The turn was stopped')
  await expect(page.getByTestId('queued-text')).toHaveText(['Only if you finish'])
  expect(app.fakeModel.chatRequests()).toHaveLength(1)

  await page.getByTestId('queued-send-now').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Later: Only if you finish'
  )
  await expect(page.getByTestId('queue')).toHaveCount(0)
  expect(app.fakeModel.chatRequests().map(latestUserText)).toEqual([
    'Tell me something long',
    'Only if you finish'
  ])
})

test('a queue belongs to its session: it waits there while another is shown, and is sent', async ({
  page,
  app
}) => {
  const long = gate()
  app.fakeModel.setScript([held(long), (req) => ({ text: `Then: ${latestUserText(req)}` })])
  await app.openFolder(page)
  await sendMessage(page, 'Tell me something long')
  await expect(page.getByTestId('message-assistant').last()).toContainText('This reply')
  const input = page.getByTestId('composer-input')
  await input.fill('After the long one')
  await expect(page.getByTestId('queue-button')).toBeVisible()
  await input.press('Enter')
  await expect(page.getByTestId('queued-text')).toHaveText(['After the long one'])

  // Another session: its own (empty) queue, and Enter sends there.
  await page.getByTestId('new-session-button').click()
  await expect(page.getByTestId('chat-empty')).toBeVisible()
  await expect(page.getByTestId('queue')).toHaveCount(0)
  await expect(page.locator('.composer__hint')).toContainText('Enter to send')
  const first = page.getByTestId('session-item').filter({ hasText: 'Tell me something long' })
  await expect(first).toContainText('Working')

  // The first session's turn ends while it is not shown; its queued message goes all the same.
  long.open()
  await expect.poll(() => app.fakeModel.chatRequests().length).toBe(2)
  expect(latestUserText(app.fakeModel.chatRequests()[1]!)).toBe('After the long one')
  await first.click()
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Then: After the long one'
  )
  await expect(page.getByTestId('message-user')).toHaveText([
    'Tell me something long',
    'After the long one'
  ])
  await expect(page.getByTestId('queue')).toHaveCount(0)
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})

test('queued text gets the size check and slash commands, and outlives a reload', async ({
  page,
  app
}) => {
  const commands = path.join(app.workspace, '.claude', 'commands')
  mkdirSync(commands, { recursive: true })
  writeFileSync(path.join(commands, 'review.md'), 'Review $ARGUMENTS for bugs.\n')
  app.fakeModel.setScript([
    { text: 'First, a question.', toolCalls: [{ name: 'AskUser', input: { question: 'Go?' } }] },
    { text: 'Going.' },
    (req) => ({ text: `Expanded: ${latestUserText(req)}` })
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Start')
  const card = page.getByTestId('question-card')
  await expect(card).toContainText('Go?')

  // Too large to send is too large to queue: it stays in the box with the sentence.
  const input = page.getByTestId('composer-input')
  await input.fill('x'.repeat(MAX_MESSAGE_BYTES + 1))
  await expect(page.getByTestId('message-too-large')).toContainText('Mecatl sends at most 1 MB')
  await expect(page.getByTestId('queue-button')).toBeDisabled()
  await input.press('Enter')
  await expect(page.getByTestId('queue')).toHaveCount(0)
  expect((await input.inputValue()).length).toBe(MAX_MESSAGE_BYTES + 1)

  // The palette works as ever; the command is queued as typed and expanded when it is sent.
  await input.fill('/rev')
  await expect(page.getByTestId('prompt-palette')).toContainText('/review')
  await input.press('Enter')
  await expect(input).toHaveValue('/review ')
  await input.pressSequentially('src/greet.ts')
  await input.press('Enter')
  await expect(page.getByTestId('queued-text')).toHaveText(['/review src/greet.ts'])

  // A reload of the window keeps the queue (and the question the turn waits on).
  await page.reload()
  await expect(card).toContainText('Go?')
  await expect(page.getByTestId('queued-text')).toHaveText(['/review src/greet.ts'])
  expect(app.fakeModel.chatRequests()).toHaveLength(1)

  await card.getByTestId('question-answer-input').fill('yes')
  await card.getByTestId('question-answer-input').press('Enter')
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Expanded: Review src/greet.ts for bugs.'
  )
  await expect(page.getByTestId('queue')).toHaveCount(0)
})
