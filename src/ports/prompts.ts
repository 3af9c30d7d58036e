import type { PromptName, PromptVariables } from './prompt-catalog.js';

/** Optional per-prompt model settings from the prompt's front matter. */
export interface PromptSettings {
  maxTokens?: number;
}

export interface RenderedPrompt {
  text: string;
  settings: PromptSettings;
}

export interface Prompts {
  render<N extends PromptName>(name: N, variables: PromptVariables<N>): RenderedPrompt;
}
