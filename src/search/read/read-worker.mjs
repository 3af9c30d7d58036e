// A reading thread (see document-reader.ts). The sources are TypeScript, run
// through tsx as bin/deep-research.js runs them; a thread registers it for itself.
import { register } from 'tsx/esm/api';

register();
const { extractDocument } = await import('./extract-document.ts');

export default extractDocument;
