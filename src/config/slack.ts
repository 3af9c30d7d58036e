import { z } from 'zod';
import { type EnvOf, optionalText, optionalUrl, positiveNumber, splitList } from '../ports/env-values.js';
import type { Config } from './config-shape.js';

const DEFAULT_SUGGESTED_PROMPTS = [
  'How do heat pumps compare with gas boilers on running costs in 2025?',
  'What changed in EU AI regulation this year, and what does it mean for a small software company?',
  'Which open-source vector databases are used in production, and what are their trade-offs?',
];

/** The Slack app: its tokens, its HTTP listener, and what people see in Slack. */
export const SLACK_FIELDS = {
  SLACK_BOT_TOKEN: optionalText.pipe(z.string().startsWith('xoxb-', 'must start with xoxb-').optional()),
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText.pipe(z.string().startsWith('xapp-', 'must start with xapp-').optional()),
  SLACK_API_URL: optionalUrl,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // The address the HTTP listener binds: every interface by default; 127.0.0.1 behind a local proxy.
  HOST: optionalText,
  SLACK_UPDATES_PER_MINUTE: z.coerce.number().int().min(1).max(100).default(45),
  MAX_QUESTION_CHARS: z.coerce.number().int().min(20).max(3000).default(2000),
  // Slack user ids that may add documents to the knowledge base from Slack (/research kb add), comma-separated.
  KB_ADMINS: z
    .string()
    .default('')
    .transform(splitList(','))
    .pipe(z.array(z.string().regex(/^[UW][A-Z0-9]+$/))),
  DELIVERY_DEADLINE_HOURS: positiveNumber.default(24),
  // How long a plan waits for [Start now] / [Edit plan] before research starts by itself; 0 starts at once.
  PLAN_REVIEW_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  // auto: streamed progress and a canvas with its summary in the thread, each where Slack allows it.
  REPORT_FORMAT: optionalText.pipe(z.enum(['auto', 'canvas', 'messages']).default('auto')),
  // Example questions the app's Messages tab offers, separated by "|" (Slack shows at most 4).
  SUGGESTED_PROMPTS: z
    .string()
    .default(DEFAULT_SUGGESTED_PROMPTS.join(' | '))
    .transform(splitList('|'))
    .pipe(z.array(z.string().max(500)).min(1).max(4)),
};

export function readSlack(e: EnvOf<typeof SLACK_FIELDS>): Config['slack'] {
  return {
    botToken: e.SLACK_BOT_TOKEN,
    signingSecret: e.SLACK_SIGNING_SECRET,
    appToken: e.SLACK_APP_TOKEN,
    apiUrl: e.SLACK_API_URL,
    port: e.PORT,
    host: e.HOST,
    updatesPerMinute: e.SLACK_UPDATES_PER_MINUTE,
    maxQuestionChars: e.MAX_QUESTION_CHARS,
    kbAdmins: e.KB_ADMINS,
    deliveryDeadlineHours: e.DELIVERY_DEADLINE_HOURS,
    suggestedPrompts: e.SUGGESTED_PROMPTS,
    reportFormat: e.REPORT_FORMAT,
    planReviewSeconds: e.PLAN_REVIEW_SECONDS,
  };
}
