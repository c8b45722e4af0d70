import type { AnswerShape } from '../../../shared/subagents'

export type ShapeVerdict = { ok: true; value: string } | { ok: false; why: string }

/**
 * Whether a child's answer is exactly of its profile's shape. Only such an answer can carry no
 * instructions of anyone else's, so only it comes back unmarked.
 */
export function checkAnswerShape(answer: string, shape: AnswerShape): ShapeVerdict {
  const text = answer.trim().replace(/\.$/, '')
  if (shape === 'number') {
    return /^-?\d+(\.\d+)?$/.test(text)
      ? { ok: true, value: text }
      : { ok: false, why: 'the answer is not a single number' }
  }
  if (shape === 'boolean') {
    const lower = text.toLowerCase()
    return lower === 'true' || lower === 'false'
      ? { ok: true, value: lower }
      : { ok: false, why: 'the answer is not true or false' }
  }
  const match = shape.find((allowed) => allowed.toLowerCase() === text.toLowerCase())
  return match !== undefined
    ? { ok: true, value: match }
    : { ok: false, why: `the answer is not one of: ${shape.join(', ')}` }
}

/** How a profile's shape is described to its child, so it knows how to answer. */
export function describeShape(shape: AnswerShape): string {
  if (shape === 'number') return 'a single number and nothing else'
  if (shape === 'boolean') return 'exactly true or false and nothing else'
  return `exactly one of these words and nothing else: ${shape.join(', ')}`
}
