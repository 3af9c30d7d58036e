// An export thread (see export-thread.ts): a PDF or Word file is laid out here, never on the event loop.
// The sources are TypeScript, run through tsx as bin/deep-research.js runs them; the build bundles its own.
import { register } from 'tsx/esm/api';

register();
const { writeExport } = await import('./export-report.ts');

export default writeExport;
