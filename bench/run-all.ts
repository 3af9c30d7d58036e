// Runs every benchmark and writes bench/RESULTS.md:   npm run bench
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

const BENCHES = [
  'engine-overhead',
  'load',
  'durability',
  'delivery',
  'soak',
  'cancel',
  'markdown',
  'cache',
  'edge',
  'admission',
  'deep-research',
  'citations',
  'citations-languages',
  'reuse',
  'untrusted-input',
  'startup',
  'schedules',
  'export',
];
const results: { name: string; figures: Record<string, unknown>; output: string }[] = [];

for (const name of BENCHES) {
  console.log(`\n=== ${name} ===`);
  const output = await run(join(import.meta.dirname, `${name}.ts`));
  const line = output.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
  if (!line) throw new Error(`${name} printed no result`);
  results.push({ ...JSON.parse(line.slice('BENCH_RESULT '.length)), output });
}

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const cpu = cpus();
const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}, ${process.platform}`;
const sections = results.map(
  (r) =>
    `## ${r.name}\n\n\`\`\`\n${r.output
      .split('\n')
      .filter((l) => l && !l.startsWith('BENCH_RESULT'))
      .join('\n')}\n\`\`\``,
);
writeFileSync(
  join(import.meta.dirname, 'RESULTS.md'),
  `# Benchmark results\n\nLatest run of \`npm run bench\`: ${new Date().toISOString()}, commit ${commit}, ${machine}.\nTargets and analysis: see bench/README.md.\n\n${sections.join('\n\n')}\n`,
);
console.log('\nwrote bench/RESULTS.md');

function run(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${script} exited with ${code}`)),
    );
  });
}
