// Builds the CLI and service once (at install: npm's `prepare`), so a command starts without compiling
// TypeScript: dist/main.js with its chunks (the commands load only when one runs) and the reading
// thread's dist/read-worker.mjs and the embedded database's thread, dist/pglite-thread.mjs. bin/deep-research.js runs this build while it is newer than every
// source, and the sources through tsx otherwise.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
// The pure-JavaScript packages (openai, zod, pg, markdown, MCP…) are bundled: Node's module loader spends
// more time finding and reading hundreds of small files than running them (measured: 0.19 s of `ask`'s
// start). These stay imports of node_modules: they load files of their own at run time (WebAssembly and
// data, worker threads, pino's transports), need not load at start (Slack, the document readers, the
// tokenizer, loaded on first use), or are tools of the build itself.
const OWN_FILES = [
  '@electric-sql/*',
  'piscina',
  'pino',
  'gpt-tokenizer',
  'pdfjs-dist',
  'mammoth',
  'linkedom',
  // The export writers read their fonts and font metrics from their own folders.
  'pdfmake',
  'docx',
  '@expo-google-fonts/*',
];
const NOT_AT_START = ['@slack/*', '@mozilla/readability', 'prom-client', 'undici', 'pg-native'];
const common = {
  absWorkingDir: root.pathname,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external: [...OWN_FILES, ...NOT_AT_START, 'esbuild', 'tsx'],
  // Bundled CommonJS packages call require() (of Node's modules, of their own optional parts): give them one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
  // Chunks sit beside main.js: one level under the project root, as src/ files are, so the paths they
  // resolve from their own address (package.json, prompts/, migrations/, the reading thread) hold.
  chunkNames: '[name]-[hash]',
};
// A chunk left from an earlier build is never loaded, but it is clutter.
rmSync(new URL('dist/', root), { recursive: true, force: true });
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
await build({
  ...common,
  stdin: {
    contents: "export { writeExport as default } from './src/export/export-report.ts';",
    resolveDir: root.pathname,
    loader: 'ts',
  },
  outfile: 'dist/export-worker.mjs',
});
// The embedded database's thread: plain JavaScript importing only packages, beside the chunk that starts it.
await build({ ...common, entryPoints: ['src/store/pglite-thread.mjs'], outfile: 'dist/pglite-thread.mjs' });
