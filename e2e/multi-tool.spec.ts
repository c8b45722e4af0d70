// One turn, several tool calls: two Reads in one reply, then a Write built from what they said.
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import {
  openToolGroups,
  readWorkspaceFile,
  sendMessage,
  toolCards,
  waitForTurnEnd
} from './fixtures/chat'

test('reads two files in one reply, then writes a third from them', async ({ page, app }) => {
  app.fakeModel.setScript([
    {
      text: 'Let me look at both files.',
      toolCalls: [
        { name: 'Read', input: { path: 'README.md' } },
        { name: 'Read', input: { path: 'notes/todo.md' } }
      ]
    },
    (req) => {
      const results = latestToolResults(req)
      // The summary is built from the Read results, so it proves both came back to the model.
      const summary = [
        '# Summary',
        `readme mentions tests: ${String(results[0]?.content.includes('end-to-end tests'))}`,
        `todo mentions milk: ${String(results[1]?.content.includes('buy milk'))}`,
        ''
      ].join('\n')
      return {
        text: `Read ${results.length} files; writing the summary.`,
        toolCalls: [{ name: 'Write', input: { path: 'summary.md', content: summary } }]
      }
    },
    { text: 'All done: summary.md is written.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Summarise README.md and notes/todo.md into summary.md')

  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()
  await expect(modal).toContainText('summary.md')
  // The two finished Reads are folded into one line (see quiet-transcript.spec.ts).
  await expect(page.getByTestId('tool-group-toggle')).toHaveText('Read 2 files')
  await page.getByTestId('approval-allow').click()

  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'All done: summary.md is written.'
  )
  await waitForTurnEnd(page)
  await openToolGroups(page)
  await expect(toolCards(page)).toHaveCount(3)
  for (const card of await toolCards(page).all()) {
    await expect(card).toHaveAttribute('data-state', 'done')
  }
  expect(readWorkspaceFile(app.workspace, 'summary.md')).toBe(
    '# Summary\nreadme mentions tests: true\ntodo mentions milk: true\n'
  )

  const secondRequest = app.fakeModel.chatRequests()[1]
  expect(secondRequest ? latestToolResults(secondRequest).map((r) => r.name) : []).toEqual([
    'Read',
    'Read'
  ])
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
  expect(app.fakeModel.remainingSteps()).toBe(0)
})
