import { readJsonAnswer } from '../../engine/json-answer.js';
import { researchRequestText } from '../../engine/phases/research-request.js';
import { callModel, currentDate, deadlineOf, type SessionContext } from '../../engine/session-context.js';
import { ModelOutputError } from '../../ports/errors.js';
import type { ChatMessage } from '../../ports/llm.js';
import { graphProblem, PLAN_ANSWER, PLAN_SCHEMA, type PlanAnswer, planText, toTasks } from './task-graph.js';
import { taskGraph } from './task-state.js';

/**
 * The deep-research plan: the planning model (structured output, the schema
 * in the prompt too for servers without it) answers clarifying questions or
 * a task graph. An answer that is not valid JSON for the schema, or not a
 * valid graph, gets one repair request naming what is wrong; a second bad
 * answer ends the session with that sentence.
 */
export async function planTasks(
  ctx: SessionContext,
  maxTasks: number,
): Promise<{ kind: 'plan'; plan: string } | { kind: 'ask'; questions: string }> {
  const { deps, settings, state } = ctx;
  const mayAsk = !state.request.skipClarification && !state.request.clarification;
  const system = deps.prompts.render('task-plan', {
    current_date: currentDate(ctx),
    max_tasks: String(maxTasks),
    may_ask: mayAsk,
    answer_schema: JSON.stringify(PLAN_SCHEMA),
  });
  const messages: ChatMessage[] = [
    { role: 'system', content: system.text },
    { role: 'user', content: researchRequestText(deps.prompts, state.request) },
  ];
  let problem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await callModel(ctx, {
      model: settings.models.orchestrator,
      purpose: 'plan',
      messages,
      maxTokens: system.settings.maxTokens,
      until: deadlineOf(ctx),
      jsonSchema: { name: 'task_plan', schema: PLAN_SCHEMA },
    });
    const read = readAnswer(response.text, maxTasks, mayAsk);
    if ('answer' in read) {
      const { questions, tasks } = read.answer;
      if (questions.length > 0 && mayAsk)
        return { kind: 'ask', questions: questions.map((q, i) => `${i + 1}. ${q.trim()}`).join('\n') };
      const graph = taskGraph(state);
      graph.tasks = toTasks(tasks);
      const plan = planText(graph.tasks);
      deps.emit({ type: 'plan_delta', text: plan });
      return { kind: 'plan', plan };
    }
    problem = read.problem;
    ctx.log.warn({ attempt: attempt + 1, problem }, 'the task plan was not usable; asking again');
    messages.push(
      { role: 'assistant', content: response.text },
      {
        role: 'user',
        content: `That answer cannot be used: ${problem}. Answer again with JSON only, matching the schema, with a valid task graph.`,
      },
    );
  }
  throw new ModelOutputError(
    'task_plan_unusable',
    `The planning model's task plan could not be used (${problem}), even after one correction: try again, or set RESEARCH_BACKEND=agents.`,
  );
}

function readAnswer(
  text: string,
  maxTasks: number,
  mayAsk: boolean,
): { answer: PlanAnswer } | { problem: string } {
  const read = readJsonAnswer(text, PLAN_ANSWER);
  if ('problem' in read) return read;
  const answer = read.value;
  // Questions are an answer only while the requester may still be asked; after that the tasks must stand.
  if (answer.questions.length > 0 && mayAsk) return { answer };
  const graph = graphProblem(answer.tasks, maxTasks);
  return graph ? { problem: graph } : { answer };
}
