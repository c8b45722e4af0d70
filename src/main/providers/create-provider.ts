import type { ProviderSettings } from '../../shared/settings'
import { AnthropicProvider } from './anthropic-provider'
import { OpenAIProvider } from './openai-provider'
import type { Provider } from './provider'

/**
 * Where keys come from: the environment, and the stored keys (Electron's safeStorage on the
 * desktop, the 0600 key file in browser mode and the CLI).
 */
export interface KeySource {
  env: NodeJS.ProcessEnv
  readSecret?: (name: string) => string | undefined
}

/** A provider that cannot be built, said so a person knows what to set. */
export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProviderConfigError'
  }
}

export function createProvider(settings: ProviderSettings, keys: KeySource): Provider {
  const apiKey = resolveKey(settings, keys)
  if (settings.kind === 'anthropic') {
    return new AnthropicProvider({
      id: settings.id,
      baseURL: settings.base_url,
      apiKey,
      ...(settings.prompt_cache !== undefined ? { promptCache: settings.prompt_cache } : {})
    })
  }
  return new OpenAIProvider({
    id: settings.id,
    flavour: settings.kind,
    baseURL: settings.base_url,
    apiKey,
    promptCacheKey: settings.prompt_cache !== 'off',
    textToolCalls: settings.text_tool_calls !== false
  })
}

function resolveKey(settings: ProviderSettings, keys: KeySource): string {
  if (settings.api_key_secret) {
    const stored = keys.readSecret?.(settings.api_key_secret)
    if (stored) return stored
    if (!settings.api_key_env) {
      throw new ProviderConfigError(
        `The key stored as "${settings.api_key_secret}" for provider ${settings.id} is not available here (it was stored on another machine or with the desktop app's keychain); enter the key again in Settings, or set api_key_env to the name of an environment variable.`
      )
    }
  }
  if (settings.api_key_env) {
    // The environment wins; a key stored under the variable's name (`mecatl keys set`) stands in.
    const value = keys.env[settings.api_key_env] || keys.readSecret?.(settings.api_key_env)
    if (value) return value
    // Named means wanted, for a local server too: sending none would come back as a 401.
    throw new ProviderConfigError(
      `Provider ${settings.id} reads its API key from the environment variable ${settings.api_key_env}, which is not set. Set it and restart Mecatl, enter the key in Settings (or store it with mecatl keys set ${settings.api_key_env}), or clear the variable's name if the server needs no key.`
    )
  } else if (settings.kind !== 'openai-compatible') {
    throw new ProviderConfigError(
      `Provider ${settings.id} has no API key: set api_key_env to the name of the environment variable that holds it.`
    )
  }
  // Local servers (Ollama, LM Studio, llama.cpp) ignore the key, but the SDK requires one.
  return 'not-needed'
}
