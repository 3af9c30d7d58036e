// The reuse match: how often a question asked again in other words is recognised as the earlier one, and
// how often a different question is mistaken for it, on the hand-written pairs in bench/question-pairs.ts.
//   npm run bench:reuse
import { SAME_QUESTION, sameQuestion } from '../src/sessions/question-match.js';
import { fmt, report } from './lib/stats.js';
import { DIFFERENT, SAME } from './question-pairs.js';

const offered = (pairs: [string, string][]) => pairs.filter(([a, b]) => sameQuestion(a, b));
const hits = offered(SAME);
const mistakes = offered(DIFFERENT);
const precision = hits.length / (hits.length + mistakes.length);
const recall = hits.length / SAME.length;
console.log(
  `threshold ${SAME_QUESTION}: ${SAME.length} paraphrased pairs, ${DIFFERENT.length} different pairs`,
);
console.log(
  `  paraphrases recognised        ${hits.length} of ${SAME.length} (recall ${fmt(recall * 100)} %)`,
);
console.log(`  different questions offered   ${mistakes.length} of ${DIFFERENT.length}`);
console.log(`  precision of an offer         ${fmt(precision * 100)} %`);
for (const [a, b] of mistakes) console.log(`  mistaken: "${a}" ~ "${b}"`);
// Words are the first stage: what they match is confirmed by one short model call (same-question prompt)
// before anything is offered, and an identical question needs none. Its verdicts need a model server.
console.log(
  `  sent to the model to confirm  ${hits.length + mistakes.length} (${hits.length} paraphrases, ${mistakes.length} different)`,
);
report('reuse', { precisionPct: precision * 100, recallPct: recall * 100, threshold: SAME_QUESTION });
