import type { LlmRequest } from '../../src/ports/llm.js';
import { fakePageReader, fakeWebSearch, hit, page } from '../fakes/fake-tools.js';
import {
  agentWithTask,
  call,
  dispatch,
  docNumber,
  type Lane,
  purpose,
  type ScriptStep,
  say,
} from '../fakes/scripted-llm.js';

export const URL_A = 'https://a.example/costs';
export const URL_B = 'https://b.example/prices';
export const URL_C = 'https://c.example/boilers';

export function corpusTools() {
  return {
    webSearch: fakeWebSearch({
      'heat pump costs': [hit(URL_A, 'Heat pump costs'), hit(`${URL_B}?utm_source=news`, 'Prices')],
      'boiler efficiency': [hit(URL_C, 'Boilers'), hit(`${URL_A}/`, 'Heat pump costs (dup)')],
      'grants 2025': [hit('https://d.example/grants', 'Grants')],
    }),
    pageReader: fakePageReader({
      [URL_A]: page(
        URL_A,
        'Heat pump costs, full',
        `Heat pumps cost 8,000 to 14,000 pounds to install. ${'More. '.repeat(50)}`,
      ),
    }),
  };
}

/** An intermediate report citing each URL by the number the agent was shown for it. */
export const citeFacts =
  (...urls: string[]) =>
  (request: LlmRequest) => ({
    text: urls.map((u) => `Fact about ${u} [${docNumber(request, u)}].`).join(' '),
  });

/** An agent that searches, optionally reads a page, and reports facts citing the given URLs. */
export function researcher(task: string, query: string, cite: string[], read?: string): Lane {
  const steps: ScriptStep[] = [call('web_search', { queries: [query] })];
  if (read) steps.push(call('open_url', { urls: [read] }));
  steps.push(call('generate_report'), { reply: citeFacts(...cite) });
  return { name: `agent ${task}`, match: agentWithTask(task), steps };
}

/** A final report that restates every fact from the findings, plus an unknown citation and a code block. */
export const finalReportStep: ScriptStep = {
  reply: (request) => {
    const findings = request.messages.map((m) => m.content).join('\n');
    const facts = [...findings.matchAll(/Fact about \S+ \[\d+\]\./g)].map((m) => m[0]);
    return {
      text: `## Findings\n\n${facts.join('\n')}\n\nUnsupported claim [999].\n\n\`\`\`\nx = y[2]\n\`\`\``,
    };
  },
};

/**
 * Cycle 1 dispatches two agents, cycle 2 one more, cycle 3 asks for the report.
 * `from: 2` leaves out what cycle 1 consumed, for a run resumed after it.
 */
export function standardScript(from: 1 | 2 = 1): Lane[] {
  const orchestrator: ScriptStep[] = [
    dispatch('T1 costs of heat pumps', 'T2 boiler efficiency'),
    call('research_agent', { task: 'T3 grants available in 2025' }),
    call('generate_report'),
  ];
  const lanes: Lane[] = [
    {
      name: 'plan',
      match: purpose('plan'),
      steps: from === 1 ? [say('1. Costs\n2. Efficiency\n3. Grants')] : [],
    },
    { name: 'orchestrator', match: purpose('orchestrator'), steps: orchestrator.slice(from - 1) },
    researcher('T3 grants', 'grants 2025', ['https://d.example/grants']),
    { name: 'report', match: purpose('final_report'), steps: [finalReportStep] },
  ];
  if (from === 1) {
    lanes.push(researcher('T1 costs', 'heat pump costs', [URL_A, URL_B], URL_A));
    lanes.push(researcher('T2 boiler', 'boiler efficiency', [URL_C, URL_A]));
  }
  return lanes;
}
