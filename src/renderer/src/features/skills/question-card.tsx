import { useState, type JSX } from 'react'
import { openQuestion } from './skills-reducer'
import { answerQuestion, useSkills } from './skills-store'
import './skills.css'

/**
 * The model's AskUser question, inline above the chat input: its options as buttons, or a text
 * field for a free answer. The turn waits until the person answers (or stops it).
 */
export function QuestionCard({ sessionId }: { sessionId: string | null }): JSX.Element | null {
  const question = useSkills((s) => openQuestion(s.state, sessionId))
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  // A new question starts with an empty field and no old error.
  const [seen, setSeen] = useState(question?.questionId)
  if (seen !== question?.questionId) {
    setSeen(question?.questionId)
    setText('')
    setError(null)
  }
  if (!question) return null

  const send = (answer: string): void => {
    if (!answer.trim() || sending) return
    setSending(true)
    void answerQuestion(question.questionId, answer.trim()).then((failure) => {
      setSending(false)
      setError(failure)
    })
  }

  return (
    <div className="question-card" data-testid="question-card" role="group" aria-label="Question">
      <div className="question-card__label">Mecatl asks</div>
      <p className="question-card__text" data-testid="question-text">
        {question.question}
      </p>
      {question.options.length > 0 && (
        <div className="question-card__options">
          {question.options.map((option) => (
            <button
              key={option}
              type="button"
              className="button question-card__option"
              data-testid="question-option"
              disabled={sending}
              onClick={() => send(option)}
            >
              {option}
            </button>
          ))}
        </div>
      )}
      <form
        className="question-card__form"
        onSubmit={(event) => {
          event.preventDefault()
          send(text)
        }}
      >
        <input
          className="input question-card__input"
          data-testid="question-answer-input"
          value={text}
          placeholder={
            question.options.length > 0 ? 'Or answer in your own words…' : 'Your answer…'
          }
          aria-label="Your answer"
          onChange={(event) => setText(event.target.value)}
          // Typed here, Enter answers the question instead of sending a message.
          autoFocus={question.options.length === 0}
        />
        <button
          type="submit"
          className="button button--primary"
          data-testid="question-answer-button"
          disabled={sending || !text.trim()}
        >
          Answer
        </button>
      </form>
      {error && (
        <p className="question-card__error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
