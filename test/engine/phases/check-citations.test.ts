import { describe, expect, it } from 'vitest';
import { checkCitations } from '../../../src/engine/phases/check-citations.js';
import { newSession } from '../../../src/engine/run-session.js';
import { createContext } from '../../../src/engine/session-context.js';
import type { CitationCheckSettings } from '../../../src/engine/settings.js';
import type { LlmRequest } from '../../../src/ports/llm.js';
import { memorySourceTexts } from '../../fakes/memory-source-texts.js';
import { judged } from '../../fakes/rule-llm.js';
import { ScriptedLlm, type ScriptStep } from '../../fakes/scripted-llm.js';
import { harness, testSettings } from '../../helpers/engine-harness.js';

const PAGES = [
  {
    url: 'https://energy.example/heat-pumps',
    title: 'Heat pump running costs',
    text: 'Heat pumps are now common in new homes. In 2024, households with a heat pump saw their running costs fall by 30 percent compared with a gas boiler. Installation still takes two days.',
  },
  {
    url: 'https://boilers.example/combi',
    title: 'Combi boilers',
    text: 'A combi boiler costs about 2,000 pounds to install. It heats water on demand, so no tank is needed.',
  },
  {
    url: 'https://cars.example/norway',
    title: 'Electric cars in Norway',
    text: 'Norway has the most electric cars per person in the world. Nine in ten new cars sold there are electric.',
  },
];

const REPORT = [
  '# Heating',
  '',
  'Heat pumps cut running costs by 30% in 2024 [1]. A combi boiler costs about 2,000 pounds to install [3].',
  '',
  '- Solar panels produce 40% more power in Spain than in Britain [2].',
  '- Gas prices rose sharply over the winter [1].',
].join('\n');

/** The judge: answers each pair the way `rule` says. */
function judge(rule: (claim: string, n: number) => 'supported' | 'partly' | 'unsupported'): ScriptStep {
  return { reply: (request: LlmRequest) => ({ text: JSON.stringify({ verdicts: judged(request, rule) }) }) };
}

async function setup(check: Partial<CitationCheckSettings>, steps: ScriptStep[] = [], keptBy = 's-1') {
  const llm = new ScriptedLlm([{ name: 'judge', match: (r) => r.purpose === 'citation_check', steps }]);
  return setupWith(llm, check, keptBy);
}

async function setupWith(llm: ScriptedLlm, check: Partial<CitationCheckSettings> = {}, keptBy = 's-1') {
  const texts = memorySourceTexts();
  const h = harness(llm, {});
  // A continued research (version 2) checks against what its earlier version kept.
  const state = { ...newSession('s-1', { question: 'Heating?' }), earlierSessions: ['s-0'] };
  const settings = testSettings({
    citationCheck: { mode: 'model', timeMs: 60_000, tokens: 60_000, ...check },
  });
  const ctx = createContext(
    { ...h.deps, sourceTexts: texts },
    settings,
    state,
    new AbortController().signal,
    false,
  );
  for (const page of PAGES) {
    const source = ctx.sources.add({
      kind: 'web',
      key: page.url,
      url: page.url,
      title: page.title,
      snippet: '',
    });
    await texts.keep(keptBy, {
      key: page.url,
      n: source.n,
      url: page.url,
      title: page.title,
      text: page.text,
    });
  }
  return { ctx, llm, texts };
}

describe('the claim check', () => {
  it('keeps what the sources say, moves a citation to the source that says it, removes the rest and marks what is left unsupported', async () => {
    const { ctx, llm } = await setup({}, [
      judge((claim, n) => (claim.startsWith('A combi boiler') && n === 2 ? 'supported' : 'unsupported')),
    ]);
    const checked = await checkCitations(ctx, REPORT);
    if (checked === 'cancelled') throw new Error('cancelled');
    expect(checked.markdown).toBe(
      [
        '# Heating',
        '',
        'Heat pumps cut running costs by 30% in 2024 [1]. A combi boiler costs about 2,000 pounds to install [2].',
        '',
        '- Solar panels produce 40% more power in Spain than in Britain ⚠ _unverified_.',
        '- Gas prices rose sharply over the winter ⚠ _unverified_.',
      ].join('\n'),
    );
    expect(checked.check).toEqual({ citations: 4, checked: 4, moved: 1, removed: 2, unverified: 2 });
    expect(checked.quotes.get(1)).toEqual([
      'In 2024, households with a heat pump saw their running costs fall by 30 percent compared with a gas boiler.',
    ]);
    expect(checked.quotes.get(2)).toEqual(['A combi boiler costs about 2,000 pounds to install.']);
    // One call for every pair lexical evidence could not settle; the clear one was not asked.
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]!.messages.at(-1)!.content).not.toContain('Heat pumps cut running costs');
    llm.assertDone();
  });

  it("reads a continued research's sources where its earlier version kept them", async () => {
    const { ctx, llm } = await setup({ mode: 'lexical' }, [], 's-0');
    const checked = await checkCitations(ctx, REPORT);
    if (checked === 'cancelled') throw new Error('cancelled');
    expect(checked.check).toMatchObject({ citations: 4, checked: 4, moved: 1, removed: 2 });
    expect(llm.calls).toHaveLength(0);
  });

  it('with lexical evidence alone, acts only on what the words settle', async () => {
    const { ctx, llm } = await setup({ mode: 'lexical' });
    const checked = await checkCitations(ctx, REPORT);
    if (checked === 'cancelled') throw new Error('cancelled');
    expect(checked.markdown).toContain('to install [2].');
    expect(checked.markdown).toContain('in Britain ⚠ _unverified_.');
    expect(checked.markdown).toContain('over the winter ⚠ _unverified_.');
    expect(checked.check).toMatchObject({ citations: 4, checked: 4, moved: 1, removed: 2 });
    expect(llm.calls).toHaveLength(0);
  });

  it('delivers the report as written, labelled, when the judge fails or answers garbage', async () => {
    for (const step of [
      { error: new Error('model server down') },
      { reply: { text: 'Sure! Here is my view.' } },
    ]) {
      const { ctx } = await setup({}, [step]);
      const checked = await checkCitations(ctx, REPORT);
      if (checked === 'cancelled') throw new Error('cancelled');
      expect(checked.markdown).toBe(REPORT);
      expect(checked.check).toEqual({
        citations: 4,
        checked: 0,
        moved: 0,
        removed: 0,
        unverified: 0,
        note: 'the check failed',
      });
    }
  });

  it('leaves claims beyond its token budget unchecked, saying so', async () => {
    const { ctx, llm } = await setup({ tokens: 1_500 }, [judge(() => 'supported')]);
    const checked = await checkCitations(ctx, REPORT);
    if (checked === 'cancelled') throw new Error('cancelled');
    expect(checked.check.checked).toBeLessThan(4);
    expect(checked.check.checked).toBeGreaterThan(0);
    expect(checked.check.note).toBe("the check's token budget ran out");
    llm.assertDone();
  });

  it("shows the judge the place that says it (or says nothing does), and keeps a loosely copied quote in the source's words", async () => {
    const report = [
      '- 2024年，使用热泵的家庭运行成本比燃气锅炉低30%。 [1]',
      '- Solar panels produce 40% more power in Spain than in Britain [2].',
      '- A combi boiler heats water on demand, without a tank [2].',
    ].join('\n');
    const { ctx, llm } = await setup({}, [
      {
        reply: (request: LlmRequest) => {
          const verdicts = judged(request, (claim) =>
            claim.startsWith('Solar') ? 'unsupported' : 'supported',
          );
          // The judge copies the sentence the way models do: curly quotes, an ellipsis, other case.
          for (const v of verdicts)
            if (v.verdict === 'supported')
              v.quote =
                v.pair === 1
                  ? 'in 2024, households … fall by 30 percent'
                  : '“It heats water on demand, so no tank is needed”';
          return { text: JSON.stringify({ verdicts }) };
        },
      },
    ]);
    const checked = await checkCitations(ctx, report);
    if (checked === 'cancelled') throw new Error('cancelled');
    const asked = llm.calls[0]!.messages.at(-1)!.content;
    // The Chinese claim is not settled on an English page by its figures: the judge reads the sentence they are in.
    expect(asked).toContain('Claim: 2024年，使用热泵的家庭运行成本比燃气锅炉低30%。');
    expect(asked).toMatch(
      /Source \[1\] Heat pump running costs:\n"""[^"]*In 2024, households with a heat pump/,
    );
    // A page that shares nothing with the claim is said to, not shown as if it were the place.
    expect(asked).toContain(
      'Claim: Solar panels produce 40% more power in Spain than in Britain.\nSource [2] Combi boilers:\n"""(No passage of this source shares a word or figure with the claim.)"""',
    );
    expect(checked.quotes.get(1)).toEqual([
      'In 2024, households with a heat pump saw their running costs fall by 30 percent compared with a gas boiler.',
    ]);
    expect(checked.quotes.get(2)).toEqual(['It heats water on demand, so no tank is needed.']);
  });

  it('is skipped when turned off, and says so', async () => {
    const { ctx } = await setup({ mode: 'off' });
    const checked = await checkCitations(ctx, REPORT);
    expect(checked).toMatchObject({
      markdown: REPORT,
      check: { citations: 4, checked: 0, note: 'the check is off' },
    });
  });

  it('finds the place for a claim in another language by its key terms in the page’s language, asked once per report', async () => {
    const llm = new ScriptedLlm([
      {
        name: 'terms',
        match: (r) => r.purpose === 'citation_terms',
        steps: [
          {
            reply: (request: LlmRequest) => {
              // Only the claim its figures could not place is asked about.
              expect(request.messages.at(-1)!.content).toMatch(/^Claim 1: 挪威.*\nSource starts: Norway has/);
              expect(request.messages.at(-1)!.content).not.toContain('Claim 2');
              return {
                text: JSON.stringify({
                  claims: [{ claim: 1, terms: ['Norway', 'electric cars', 'per person'] }],
                }),
              };
            },
          },
        ],
      },
      { name: 'judge', match: (r) => r.purpose === 'citation_check', steps: [judge(() => 'supported')] },
    ]);
    const { ctx } = await setupWith(llm);
    await checkCitations(
      ctx,
      '挪威是世界上人均电动汽车最多的国家 [3]。热泵在2024年将运行成本降低了30% [1]。',
    );
    llm.assertDone();
    const asked = llm.calls.find((c) => c.purpose === 'citation_check')!.messages.at(-1)!.content;
    expect(asked).toContain('Norway has the most electric cars per person in the world.');
    expect(asked).not.toContain('(No passage');
  });

  it('checks as before when the terms call fails: the claim in another language gets the page’s opening', async () => {
    const llm = new ScriptedLlm([
      {
        name: 'terms',
        match: (r) => r.purpose === 'citation_terms',
        steps: [{ error: new Error('model down') }],
      },
      { name: 'judge', match: (r) => r.purpose === 'citation_check', steps: [judge(() => 'supported')] },
    ]);
    const { ctx } = await setupWith(llm);
    const checked = await checkCitations(ctx, '挪威是世界上人均电动汽车最多的国家 [3]。');
    llm.assertDone();
    expect(checked !== 'cancelled' && checked.check.checked).toBe(1);
    const asked = llm.calls.find((c) => c.purpose === 'citation_check')!.messages.at(-1)!.content;
    expect(asked).toContain(
      '(No passage shares a word or figure with the claim; the source is in another language.',
    );
  });
});
