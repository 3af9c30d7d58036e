// A burst of signed /research commands from a process of its own, so the acks are timed by a client
// that does nothing else (the benchmark's process also serves the fake Slack and model servers):
//   node --import tsx bench/lib/burst.ts APP_URL RESPONSE_URL_BASE SESSIONS CHANNELS
// Prints one JSON line: [{ status, ms }, …].
import { FORM, signedPost, slashCommand } from '../../test/helpers/slack-requests.js';

const [url, responseBase, sessions, channels] = process.argv.slice(2);
const acks = await Promise.all(
  Array.from({ length: Number(sessions) }, (_, i) =>
    signedPost(
      url!,
      slashCommand(
        `Benchmark question number ${i + 1} about storage`,
        `U${1000 + i}`,
        `${responseBase}c${i}`,
        {
          channel_id: `C${(i % Number(channels)) + 1}`,
        },
      ),
      FORM,
    ),
  ),
);
process.stdout.write(`${JSON.stringify(acks.map(({ status, ms }) => ({ status, ms })))}\n`);
