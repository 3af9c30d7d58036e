import { z } from 'zod';
import { readJsonAnswer } from '../json-answer.js';
import { callModel, deadlineOf, type SessionContext } from '../session-context.js';
import { strictJsonSchema } from '../strict-schema.js';
import { errorText } from '../tools/tool-result.js';
import { extractFindings } from './findings.js';

const COVERAGE_ANSWER = z.object({
  steps: z.array(z.object({ step: z.number().int(), covered: z.boolean(), missing: z.string() })),
});

const COVERAGE_SCHEMA = strictJsonSchema(COVERAGE_ANSWER);

/** What the check reads of each finding, and of all of them: enough to judge coverage, short enough to be quick. */
const FINDING_CHARS = 3_000;
const FINDINGS_CHARS = 40_000;
const CHECK_MS = 90_000;

/**
 * The plan's steps against the findings, before the report is written: one
 * short model call with a strict answer. Returns the steps left thin, as
 * "Step 3: what is still unknown", or null when the check could not be made
 * (research then goes on to the report as it would have).
 */
export async function checkCoverage(ctx: SessionContext): Promise<string[] | null> {
  const { deps, state } = ctx;
  const findings = extractFindings(state, ctx.work);
  if (!state.plan || findings.length === 0) return null;
  deps.emit({ type: 'checking', text: 'Checking the findings against the plan' });
  const text = findings
    .map((f) => `### ${f.task}\n\n${f.report.slice(0, FINDING_CHARS)}`)
    .join('\n\n')
    .slice(0, FINDINGS_CHARS);
  const system = deps.prompts.render('coverage-check', {
    research_plan: state.plan,
    answer_schema: JSON.stringify(COVERAGE_SCHEMA),
  });
  try {
    const response = await callModel(ctx, {
      model: ctx.settings.models.agent,
      purpose: 'coverage_check',
      messages: [
        { role: 'system', content: system.text },
        { role: 'user', content: `Findings so far:\n\n${text}` },
      ],
      maxTokens: system.settings.maxTokens,
      until: Math.min(deadlineOf(ctx), deps.clock.now() + CHECK_MS),
      jsonSchema: { name: 'coverage_check', schema: COVERAGE_SCHEMA },
    });
    const read = readJsonAnswer(response.text, COVERAGE_ANSWER);
    if ('problem' in read) throw new Error(`the answer could not be used: ${read.problem}`);
    return read.value.steps
      .filter((s) => !s.covered)
      .map((s) => `Step ${s.step}: ${s.missing.trim().replace(/[.;\s]+$/, '') || 'not covered'}`);
  } catch (error) {
    if (ctx.cancel.aborted) return null;
    ctx.log.warn({ err: error }, `coverage check failed; writing the report: ${errorText(error)}`);
    return null;
  }
}
