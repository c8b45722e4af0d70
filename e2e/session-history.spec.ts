// Recorded sessions: resumed after browser mode restarts (or is killed mid-turn), renamed,
// searched, forked, replayed, exported and deleted from the session list.
import { readFileSync } from 'node:fs'
import { gate } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

// Restarts stop the server: these two get one of their own.
test.describe('across a restart', () => {
  test.use({ ownServer: true })

  test('a session is resumed after browser mode restarts, and continues with its history', async ({
    page,
    app
  }) => {
    app.fakeModel.setScript([
      { text: 'Let me look.', toolCalls: [{ name: 'Read', input: { path: 'README.md' } }] },
      { text: 'It is a tiny sample project for the tests.' },
      { text: 'Yes: I read README.md before the restart.' }
    ])
    await app.openFolder(page)
    await sendMessage(page, 'What is this project?')
    await expect(page.getByTestId('message-assistant').last()).toContainText('tiny sample project')
    await waitForTurnEnd(page)

    await app.restart()
    await page.goto(app.url)
    await app.openFolder(page)
    const sessions = page.getByTestId('session-item')
    await expect(sessions).toHaveCount(1)
    await expect(sessions.first()).toContainText('What is this project?')
    await expect(page.getByTestId('session-meta').first()).toContainText(/KB|bytes/)
    await expect(page.getByTestId('message-user')).toHaveText(['What is this project?'])
    await expect(toolCards(page, 'Read')).toHaveCount(1)

    await sendMessage(page, 'Do you remember what you read?')
    await expect(page.getByTestId('message-assistant').last()).toContainText('before the restart')
    await waitForTurnEnd(page)
    // The model was sent the whole conversation, tool call and result included.
    const resumed = app.fakeModel.chatRequests().at(-1)
    expect(resumed?.messages.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user'
    ])
    expect(app.fakeModel.exhaustedRequests()).toEqual([])
  })

  test('a turn killed mid-stream shows as interrupted, with everything before it', async ({
    page,
    app
  }) => {
    app.fakeModel.setScript([
      { text: 'Reading.', toolCalls: [{ name: 'Read', input: { path: 'notes/todo.md' } }] },
      // Held after its first words, so the kill below lands mid-reply, however loaded the machine.
      { text: 'The list says to buy milk and more. '.repeat(30), holdUntil: gate().opened },
      { text: 'Picking up where we were.' }
    ])
    await app.openFolder(page)
    await sendMessage(page, 'Summarise notes/todo.md')
    await expect(toolCards(page, 'Read')).toHaveAttribute('data-state', 'done')
    await expect(page.getByTestId('message-assistant').last()).toContainText('The list says')

    await app.restart('SIGKILL')
    await page.goto(app.url)
    await app.openFolder(page)
    await expect(page.getByTestId('message-user')).toHaveText(['Summarise notes/todo.md'])
    await expect(toolCards(page, 'Read')).toHaveCount(1)
    // The words of the reply shown before the kill were saved before they were shown.
    await expect(page.getByTestId('message-assistant').last()).toContainText('The list says')
    await expect(page.getByTestId('turn-interrupted')).toBeVisible()

    await sendMessage(page, 'Go on')
    await expect(page.getByTestId('message-assistant').last()).toContainText('Picking up')
    await waitForTurnEnd(page)
  })
})

test('sessions are renamed, searched, forked, replayed, exported and deleted', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { text: 'Greetings live in src/greet.ts.' },
    { text: 'The notes are a todo list.' },
    { text: 'Forked answer.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Where is the greeting?')
  await waitForTurnEnd(page)
  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'What are the notes?')
  await waitForTurnEnd(page)

  const sessions = page.getByTestId('session-item')
  const greeting = sessions.filter({ hasText: 'Where is the greeting?' })
  await greeting.click()
  await expect(page.getByTestId('message-user')).toHaveText(['Where is the greeting?'])

  // Rename in place.
  await greeting.hover()
  await page.getByRole('button', { name: 'Rename “Where is the greeting?”' }).click()
  await page.getByTestId('session-rename-input').fill('Greeting hunt')
  await page.getByTestId('session-rename-input').press('Enter')
  await expect(page.getByTestId('session-title')).toHaveText('Greeting hunt')
  await expect(sessions.filter({ hasText: 'Greeting hunt' })).toHaveCount(1)

  // Search by the text of the messages, not only titles.
  await page.getByTestId('session-search').fill('todo list')
  await expect(sessions).toHaveCount(1)
  await expect(page.getByTestId('session-snippet')).toContainText('todo list')
  await page.getByTestId('session-search').fill('zebra')
  await expect(page.getByTestId('session-search-empty')).toBeVisible()
  await page.getByTestId('session-search').fill('')
  await expect(sessions).toHaveCount(2)

  // Replay the renamed session step by step.
  await page.getByTestId('replay-button').click()
  await expect(page.getByTestId('replay-step')).toHaveText('Step 1 of 3')
  await expect(page.getByTestId('message-assistant')).toHaveCount(0)
  await page.getByTestId('replay-next').click()
  await expect(page.getByTestId('message-assistant')).toContainText('Greetings live')
  await page.getByTestId('replay-exit').click()
  await expect(page.getByTestId('composer-input')).toBeVisible()

  // Export as Markdown, through the browser's download.
  await page.getByTestId('export-button').click()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-md').click()
  ])
  expect(download.suggestedFilename()).toMatch(/^greeting-hunt-[0-9a-f]{8}\.md$/)
  const markdown = readFileSync(await download.path(), 'utf8')
  expect(markdown).toContain('# Greeting hunt')
  expect(markdown).toContain('## Assistant\n\nGreetings live in src/greet.ts.')

  // Fork from the reply: a new session with the conversation up to there, then continued.
  await page.getByTestId('message-assistant').hover()
  await expect(page.getByTestId('fork-button').last()).toHaveCSS('opacity', '1')
  await page.getByTestId('fork-button').last().click()
  await expect(page.getByTestId('session-title')).toHaveText('Greeting hunt (fork)')
  await expect(page.getByTestId('message-user')).toHaveText(['Where is the greeting?'])
  await expect(page.getByTestId('message-assistant')).toContainText('Greetings live')
  await sendMessage(page, 'And in the fork?')
  await expect(page.getByTestId('message-assistant').last()).toContainText('Forked answer.')
  await waitForTurnEnd(page)
  const forked = app.fakeModel.chatRequests().at(-1)
  expect(forked?.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
    'Where is the greeting?',
    'And in the fork?'
  ])
  await expect(sessions).toHaveCount(3)

  // Delete, after a confirmation.
  const notes = sessions.filter({ hasText: 'What are the notes?' })
  await notes.hover()
  await page.getByRole('button', { name: 'Delete “What are the notes?”' }).click()
  await expect(page.getByTestId('session-delete-confirm')).toBeVisible()
  await page.getByTestId('session-delete-yes').click()
  await expect(sessions).toHaveCount(2)
  await expect(notes).toHaveCount(0)
})
