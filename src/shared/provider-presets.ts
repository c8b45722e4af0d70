import type { ProviderKind } from './settings'

/** A provider the Settings screen can fill in at once: its usual address and key variable. */
export interface ProviderPreset {
  /** Also the id a new provider of this preset is given (then "ollama-2"…). */
  id: string
  label: string
  kind: ProviderKind
  baseUrl: string
  /** The variable its key is usually kept in; absent for local servers, which take none. */
  keyEnv?: string
}

/** Local servers and hosted services that speak the OpenAI chat API. */
export const providerPresets: readonly ProviderPreset[] = [
  {
    id: 'ollama',
    label: 'Ollama',
    kind: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:11434/v1'
  },
  {
    id: 'lm-studio',
    label: 'LM Studio',
    kind: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:1234/v1'
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    kind: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY'
  },
  {
    id: 'groq',
    label: 'Groq',
    kind: 'openai-compatible',
    baseUrl: 'https://api.groq.com/openai/v1',
    keyEnv: 'GROQ_API_KEY'
  },
  {
    id: 'gemini',
    label: 'Google Gemini (OpenAI-compatible)',
    kind: 'openai-compatible',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    keyEnv: 'GEMINI_API_KEY'
  }
]
