import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROMPTS_DIR } from '../../src/compose.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { PROMPT_CATALOG } from '../../src/ports/prompt-catalog.js';
import { loadPrompts } from '../../src/prompts/load-prompts.js';

let dir = '';
function copyPrompts(): string {
  dir = mkdtempSync(join(tmpdir(), 'prompts-'));
  cpSync(PROMPTS_DIR, dir, { recursive: true });
  return dir;
}
const edit = (name: string, change: (s: string) => string) => {
  const file = join(dir, `${name}.md`);
  writeFileSync(file, change(readFileSync(file, 'utf8')));
};

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('loadPrompts', () => {
  it('loads every prompt the code uses and renders without HTML escaping', () => {
    const prompts = loadPrompts(PROMPTS_DIR);
    const text = prompts.render('research-request', {
      question: 'Is "A & B" <better>?',
      clarification_questions: '',
      clarification_answer: '',
      previous_research: '',
      discussion: '',
      files: '',
    }).text;
    expect(text).toBe('Research question:\nIs "A & B" <better>?');
    const withDiscussion = prompts.render('research-request', {
      question: 'Which one should we pick?',
      clarification_questions: '',
      clarification_answer: '',
      previous_research: '',
      discussion: 'Ann: we compare heat pumps for the Leeds office',
      files: '',
    }).text;
    expect(withDiscussion).toContain(
      '<discussion>\nAnn: we compare heat pumps for the Leeds office\n</discussion>',
    );
    expect(withDiscussion.endsWith('Research question:\nWhich one should we pick?')).toBe(true);
    expect(prompts.render('final-report', { current_date: '2026-11-21' }).settings.maxTokens).toBe(20000);
  });

  it('includes the current date and language guidance in every system prompt that needs them', () => {
    for (const [name, vars] of Object.entries(PROMPT_CATALOG)) {
      const source = readFileSync(join(PROMPTS_DIR, `${name}.md`), 'utf8');
      if ((vars as readonly string[]).includes('current_date')) expect(source).toContain('{{current_date}}');
    }
    for (const name of ['clarification', 'research-plan', 'final-report', 'intermediate-report']) {
      expect(readFileSync(join(PROMPTS_DIR, `${name}.md`), 'utf8')).toMatch(/language/);
    }
  });

  it('opens every system prompt with the same house rules, long enough to be cached, and ends with the date', () => {
    const prompts = loadPrompts(PROMPTS_DIR);
    const date = { current_date: '2026-11-25' };
    const systems = [
      prompts.render('clarification', { ...date, max_questions: '5' }).text,
      prompts.render('research-plan', { ...date, max_steps: '6' }).text,
      prompts.render('final-report', date).text,
      prompts.render('final-report-merge', { ...date, research_plan: 'p' }).text,
      prompts.render('research-agent', { ...date, has_web_search: true, has_internal_search: false }).text,
    ];
    let shared = systems[0]!;
    for (const text of systems) while (!text.startsWith(shared)) shared = shared.slice(0, -1);
    expect(shared).toMatch(/^# House rules of this research assistant/);
    expect(countTokens(shared)).toBeGreaterThanOrEqual(900);
    for (const text of systems) expect(text.endsWith('Today is 2026-11-25.')).toBe(true);
  });

  it('refuses a missing included text', () => {
    copyPrompts();
    rmSync(join(dir, 'house-rules.md'));
    expect(() => loadPrompts(dir)).toThrow(
      /prompts\/house-rules\.md is missing \(included as \{\{> house-rules\}\}\)/,
    );
  });

  it('renders sections only when their flag is set', () => {
    const prompts = loadPrompts(PROMPTS_DIR);
    const vars = {
      current_date: 'd',
      has_web_search: false,
      has_internal_search: true,
    };
    const text = prompts.render('research-agent', vars).text;
    expect(text).toContain('internal_search');
    expect(text).not.toContain('`web_search`');
  });

  it('refuses a missing prompt', () => {
    copyPrompts();
    rmSync(join(dir, 'open-url-nudge.md'));
    expect(() => loadPrompts(dir)).toThrow('prompts/open-url-nudge.md is missing');
  });

  it('refuses a prompt declaring a variable the code does not pass, or missing one it does', () => {
    copyPrompts();
    edit('final-report', (s) =>
      s.replace('variables: [current_date]', 'variables: [current_date, audience]'),
    );
    expect(() => loadPrompts(dir)).toThrow(
      /final-report.md: declares variables the code does not pass: audience/,
    );
    edit('final-report', (s) => s.replace('variables: [current_date, audience]', 'variables: []'));
    expect(() => loadPrompts(dir)).toThrow(/does not declare variables the code passes: current_date/);
  });

  it('refuses a body using an undeclared variable, and an unknown prompt file', () => {
    copyPrompts();
    edit('open-url-nudge', (s) => `${s}\n{{#urgent}}Hurry.{{/urgent}}`);
    writeFileSync(join(dir, 'stray.md'), '---\nname: stray\ndescription: x\n---\nhi');
    expect(() => loadPrompts(dir)).toThrow(
      /uses undeclared variables: urgent.*stray.md is not used by the code/,
    );
  });

  it('refuses rendering with variables other than the declared ones', () => {
    const prompts = loadPrompts(PROMPTS_DIR);
    // @ts-expect-error the type system already forbids this; the runtime check guards untyped callers
    expect(() => prompts.render('intermediate-report-query', { task: 't', extra: 'x' })).toThrow(
      /declares \[task\]/,
    );
  });
});
