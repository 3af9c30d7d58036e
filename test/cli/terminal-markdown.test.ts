import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderForTerminal } from '../../src/cli/terminal-markdown.js';

const REPORT = `# Heat pumps in cold climates

## Summary

Cold-climate heat pumps keep a **coefficient of performance** above 2 at -15 °C [1], and field studies show lower running costs than gas boilers in most cases [2], see [the NEEP list](https://neep.org/list).

- A first point long enough that it has to wrap onto a second line at this width [3]
  1. nested step
- [x] done item

> A quoted line.

\`\`\`
const cop = heat / power; // never wrapped, however long this line of code happens to be
\`\`\`

| Country | COP |
| --- | --- |
| Canada | 2.1 |
| Norway | 2.85 |
`;

describe('renderForTerminal', () => {
  const styled = renderForTerminal(REPORT, 50);
  const plain = stripVTControlCharacters(styled);
  const lines = plain.split('\n');

  it('styles headings, emphasis, citations and code, leaving no Markdown markup behind', () => {
    expect(styled).toContain('\x1b[1m\x1b[4mHeat pumps in cold climates');
    expect(styled).toContain('\x1b[1mSummary\x1b[22m');
    expect(styled).toContain('\x1b[36m[1]\x1b[39m');
    expect(plain).not.toMatch(/^#|\*\*|^```|^\|/m);
    expect(plain).toMatch(/the NEEP list\s+\(https:\/\/neep\.org\/list\)/);
  });

  it('wraps prose to the width with hanging indents, and never wraps code', () => {
    const code = lines.find((l) => l.includes('const cop'))!;
    expect(code.startsWith('    const cop')).toBe(true);
    for (const line of lines.filter((l) => l !== code)) expect(line.length).toBeLessThanOrEqual(50);
    const item = lines.findIndex((l) => l.startsWith('• A first point'));
    expect(lines[item + 1]).toMatch(/^ {2}\S/);
    expect(lines).toContain('  1. nested step');
    expect(lines).toContain('• [x] done item');
    expect(lines).toContain('│ A quoted line.');
  });

  it('lays a table out in aligned columns', () => {
    expect(lines).toContain('Country │ COP ');
    expect(lines).toContain('Canada  │ 2.1 ');
    expect(lines).toContain('Norway  │ 2.85');
  });
});
