import type { ModelRef } from '../../shared/domain'
import type { ProviderKind, ProviderSettings, Settings } from '../../shared/settings'
import { providerSettingsFor } from './provider-settings'

/**
 * Model names known to take images, matched against the name in lower case with any `vendor/`
 * part (OpenRouter) removed. The list errs towards "no": a model wrongly thought to see images
 * would be sent pictures it cannot read, where one wrongly thought blind only gets a description.
 */
const imageModelPatterns: readonly RegExp[] = [
  // Anthropic: every Claude 3 and later model (claude-3-5-sonnet, claude-sonnet-4-5, ...).
  /^claude-(3|[a-z]+-[4-9])/,
  // OpenAI: the GPT-4o, GPT-4.1 and GPT-5 families, GPT-4 Turbo, and o1, o3, o4-mini.
  /^(chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-4-turbo|gpt-4-vision)/,
  /^(o1|o3|o4-mini)(-\d{4}-\d{2}-\d{2}|-pro)?$/,
  // Google.
  /^gemini-/,
  /^gemma-?3(?![:-]1b)/,
  // Open vision models as Ollama, LM Studio and vLLM name them.
  /llava/,
  /^(qwen[\d.]*-?vl|qwen2\.5vl|qwen3-vl)/,
  /^llama3\.2-vision|^llama-?4/,
  /^(minicpm-v|moondream|bakllava|pixtral|granite3\.2-vision|mistral-small3\.[12])/
]

/**
 * Whether `model` of a provider of kind `kind` takes image input. When the provider sets
 * `image_models`, that list is the whole answer for it (`[]` turns images off); otherwise a list
 * of known model families decides: Claude 3 and later, GPT-4o, GPT-4.1, GPT-5, o1/o3/o4-mini,
 * Gemini, Gemma 3, LLaVA, Qwen-VL, Llama 3.2 Vision, Llama 4, MiniCPM-V, Pixtral and a few more.
 */
export function modelSupportsImages(
  kind: ProviderKind | null,
  model: string,
  provider?: Pick<ProviderSettings, 'image_models'>
): boolean {
  if (provider?.image_models) return provider.image_models.includes(model)
  const name = (model.toLowerCase().split('/').at(-1) ?? '').trim()
  if (kind === 'anthropic' && name.startsWith('claude-') && !/^claude-(2|instant)/.test(name)) {
    return true
  }
  return imageModelPatterns.some((pattern) => pattern.test(name))
}

/** The same question for a session's model, looked up in the settings. */
export function modelRefSupportsImages(ref: ModelRef | null, settings: Settings): boolean {
  if (!ref) return false
  const provider = providerSettingsFor(ref, settings)
  return modelSupportsImages(provider?.kind ?? null, ref.model, provider)
}
