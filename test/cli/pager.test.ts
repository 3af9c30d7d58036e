import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { showPaged } from '../../src/cli/pager.js';
import { Capture } from '../helpers/io.js';

const terminal = (rows: number) => Object.assign(new Capture(), { isTTY: true, columns: 80, rows });
const long = `${Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

describe('showPaged', () => {
  it('sends a report taller than the window through the pager', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pager-')), 'paged.txt');
    const out = terminal(20);
    await showPaged(long, out, `cat > ${file}`);
    expect(readFileSync(file, 'utf8')).toBe(long);
    expect(out.text).toBe('');
  });

  it('writes directly when it fits, when output is not a terminal, or when the pager is missing', async () => {
    const fits = terminal(100);
    await showPaged(long, fits, 'definitely-not-a-pager-xyz');
    expect(fits.text).toBe(long);
    const piped = new Capture();
    await showPaged(long, piped, 'definitely-not-a-pager-xyz');
    expect(piped.text).toBe(long);
    const missing = terminal(20);
    await showPaged(long, missing, 'definitely-not-a-pager-xyz 2>/dev/null');
    expect(missing.text).toBe(long);
  });
});
