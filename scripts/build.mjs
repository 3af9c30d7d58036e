// Builds the CLI and service once (at install: npm's `prepare`), so a command starts without compiling
// TypeScript: dist/main.js with its chunks (the commands load only when one runs) and the reading
// thread's dist/read-worker.mjs. Packages stay imports of node_modules. bin/deep-research.js runs this
// build while it is newer than every source, and the sources through tsx otherwise.
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const common = {
  absWorkingDir: root.pathname,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  // Chunks sit beside main.js: one level under the project root, as src/ files are, so the paths they
  // resolve from their own address (package.json, prompts/, migrations/, the reading thread) hold.
  chunkNames: '[name]-[hash]',
};
await build({ ...common, entryPoints: { main: 'src/main.ts' }, outdir: 'dist', splitting: true });
await build({
  ...common,
  stdin: {
    contents: "export { extractDocument as default } from './src/search/read/extract-document.ts';",
    resolveDir: root.pathname,
    loader: 'ts',
  },
  outfile: 'dist/read-worker.mjs',
});
