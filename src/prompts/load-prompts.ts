import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Mustache from 'mustache';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../ports/errors.js';
import { PROMPT_CATALOG, type PromptName, type PromptVariables } from '../ports/prompt-catalog.js';
import type { PromptSettings, Prompts, RenderedPrompt } from '../ports/prompts.js';

const FrontMatter = z
  .object({
    name: z.string(),
    description: z.string().min(1),
    variables: z.array(z.string()).default([]),
    max_tokens: z.number().int().positive().optional(),
  })
  .strict();

interface LoadedPrompt {
  template: string;
  variables: readonly string[];
  settings: PromptSettings;
  /** The shared texts it includes (`{{> name}}`). */
  partials: string[];
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/**
 * Loads `prompts/*.md` and checks them against the code's catalog: every
 * prompt present, declaring exactly the variables the code passes, and its
 * body using no variable it does not declare. Any mismatch stops start-up.
 */
export function loadPrompts(dir: string): Prompts {
  const files = new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => [f.slice(0, -3), join(dir, f)]),
  );
  const loaded = new Map<string, LoadedPrompt>();
  const problems: string[] = [];
  // Shared text a prompt includes with `{{> name}}` (the house rules), loaded from its own file.
  const partials: Record<string, string> = {};
  for (const [name, expected] of Object.entries(PROMPT_CATALOG)) {
    const file = files.get(name);
    if (!file) {
      problems.push(`prompts/${name}.md is missing`);
      continue;
    }
    try {
      loaded.set(name, parsePrompt(name, readFileSync(file, 'utf8'), expected));
    } catch (error) {
      problems.push(`prompts/${name}.md: ${(error as Error).message}`);
    }
  }
  const included = new Set([...loaded.values()].flatMap((p) => p.partials));
  for (const name of included) {
    const file = files.get(name);
    if (!file) problems.push(`prompts/${name}.md is missing (included as {{> ${name}}})`);
    else
      try {
        partials[name] = parsePrompt(name, readFileSync(file, 'utf8'), []).template.trim();
      } catch (error) {
        problems.push(`prompts/${name}.md: ${(error as Error).message}`);
      }
  }
  for (const name of files.keys()) {
    if (!(name in PROMPT_CATALOG) && !included.has(name))
      problems.push(`prompts/${name}.md is not used by the code`);
  }
  if (problems.length > 0)
    throw new ConfigError('invalid_prompts', `Invalid prompts: ${problems.join('; ')}`);

  return {
    render<N extends PromptName>(name: N, variables: PromptVariables<N>): RenderedPrompt {
      const prompt = loaded.get(name)!;
      const given = Object.keys(variables).sort();
      const declared = [...prompt.variables].sort();
      if (given.join() !== declared.join()) {
        throw new ConfigError(
          'prompt_variables',
          `Prompt ${name} declares [${declared.join(', ')}] but was given [${given.join(', ')}]`,
        );
      }
      // Prompts are plain text: no HTML escaping of values.
      const text = Mustache.render(prompt.template, variables, partials, { escape: (v: string) => v });
      return { text: text.trim(), settings: prompt.settings };
    },
  };
}

function parsePrompt(name: string, source: string, expected: readonly string[]): LoadedPrompt {
  const match = FRONT_MATTER.exec(source);
  if (!match) throw new Error('no YAML front matter');
  const meta = FrontMatter.safeParse(parseYaml(match[1]!));
  if (!meta.success) throw new Error(`front matter: ${meta.error.issues.map((i) => i.message).join(', ')}`);
  if (meta.data.name !== name)
    throw new Error(`front matter name "${meta.data.name}" does not match the file`);
  const declared = meta.data.variables;
  const missing = expected.filter((v) => !declared.includes(v));
  const unknown = declared.filter((v) => !expected.includes(v));
  if (missing.length) throw new Error(`does not declare variables the code passes: ${missing.join(', ')}`);
  if (unknown.length) throw new Error(`declares variables the code does not pass: ${unknown.join(', ')}`);
  const template = match[2]!;
  const { names: used, partials } = templateNames(template);
  const undeclared = [...used].filter((v) => !declared.includes(v));
  if (undeclared.length) throw new Error(`uses undeclared variables: ${undeclared.join(', ')}`);
  return { template, variables: declared, settings: { maxTokens: meta.data.max_tokens }, partials };
}

/** Every variable name a Mustache template refers to (sections included), and the partials it includes. */
function templateNames(template: string): { names: Set<string>; partials: string[] } {
  const names = new Set<string>();
  const partials: string[] = [];
  const walk = (tokens: unknown[]) => {
    for (const token of tokens as [string, string, number, number, unknown[]?][]) {
      const [type, value, , , children] = token;
      if (type === 'name' || type === '&' || type === '#' || type === '^') names.add(value);
      if (type === '>') partials.push(value);
      if (children) walk(children);
    }
  };
  walk(Mustache.parse(template));
  return { names, partials };
}
