import { z } from 'zod';

/** The kinds of value environment variables hold, as the config schema reads them. */
export const positiveInt = z.coerce.number().int().positive();
export const positiveNumber = z.coerce.number().positive();
export const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));
// http(s) only: `localhost:11434` parses as a URL with the scheme "localhost:" and would fail much later.
/**
 * Ports the fetch standard blocks (fetch.spec.whatwg.org, "bad port"): the
 * HTTP client refuses them before connecting, which otherwise surfaces only
 * as a retried "Connection error." with no address.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);
const portOf = (url: string) => (URL.canParse(url) ? Number(new URL(url).port) : 0);
export const optionalUrl = optionalText.pipe(
  z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .refine((url) => !BAD_PORTS.has(portOf(url)), {
      error: (issue) =>
        `uses port ${portOf(String(issue.input))}, which HTTP clients refuse to connect to (a blocked port): run the server on another port`,
    })
    .optional(),
);
export const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .default('false')
  .transform((v) => ['true', '1', 'yes'].includes(v));

/** A variable holding a list: its items, trimmed, empty ones dropped. */
export const splitList = (separator: string) => (value: string) =>
  value
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);

/** Several settings to fix, as one message: each on its own line, so one run names them all. */
export function settingsMessage(problems: string[]): string {
  if (problems.length === 1) return problems[0]!;
  return `${problems.length} settings need fixing:\n${problems.map((p) => `  - ${p}`).join('\n')}`;
}

/** The parsed values of a group of variables. */
export type EnvOf<F extends z.ZodRawShape> = z.output<z.ZodObject<F>>;
