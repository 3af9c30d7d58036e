/**
 * What a claim and a source are compared by, in any script: content words,
 * figures, and the cues that turn a statement around (negation, direction).
 * Both sides are read the same way, so a statement and a page are compared
 * in the same terms: NFKC first (full-width digits and letters become
 * ASCII), then words by `Intl.Segmenter` (Node's ICU), and for scripts
 * written without spaces (Chinese, Japanese, Korean) overlapping character
 * pairs, which do not depend on where a segmenter puts word breaks.
 */

const WORDS = new Intl.Segmenter('und', { granularity: 'word' });

/** Scripts a text is written in, as far as comparing words goes. */
export type Script = 'latin' | 'cyrillic' | 'greek' | 'arabic' | 'hebrew' | 'cjk' | 'hangul' | 'other';

/** A text folded for comparison: compatibility forms (full-width, ligatures), lower case. */
export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Han, kana and Hangul: written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu;

/** Function characters of Chinese and Japanese: a pair with one of them says little. */
const STOP_CHARS = new Set([
  ...'的了是在和与及或对为也而这那其之于就都被把从并且但所以地得着过吗呢吧啊个们此该等以已将会能可要のにはをがでとやへからまでより',
]);

/** Content terms: words outside the stopwords, lightly stemmed; character pairs for unspaced scripts. */
export function termsOf(text: string): string[] {
  const folded = fold(text);
  const terms: string[] = [];
  // A hyphenated compound ("open-source") is one word, as it was written.
  const spaced = folded.replace(UNSPACED_RUN, ' ').replace(/(?<=\p{L})[-‐](?=\p{L})/gu, '');
  for (const { segment, isWordLike } of WORDS.segment(spaced)) {
    if (!isWordLike || /^\d/.test(segment)) continue;
    const word = segment.replace(/['’]s$/, '').replace(/['’]/g, '');
    if ([...word].length > 2 && !STOPWORDS.has(word)) terms.push(stem(word));
  }
  for (const run of folded.match(UNSPACED_RUN) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 1 < chars.length; i++) {
      if (STOP_CHARS.has(chars[i]!) || STOP_CHARS.has(chars[i + 1]!)) continue;
      terms.push(chars[i]! + chars[i + 1]!);
    }
  }
  return terms;
}

/** The script most of a text's letters are in. */
export function scriptOf(text: string): Script {
  const counts = new Map<Script, number>();
  for (const ch of text.normalize('NFKC')) {
    const script = letterScript(ch);
    if (script) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let best: Script = 'other';
  let most = 0;
  for (const [script, n] of counts) if (n > most) [best, most] = [script, n];
  return best;
}

function letterScript(ch: string): Script | null {
  if (!/\p{L}/u.test(ch)) return null;
  if (/\p{Script=Latin}/u.test(ch)) return 'latin';
  if (/\p{Script=Hangul}/u.test(ch)) return 'hangul';
  if (UNSPACED.test(ch)) return 'cjk';
  if (/\p{Script=Cyrillic}/u.test(ch)) return 'cyrillic';
  if (/\p{Script=Greek}/u.test(ch)) return 'greek';
  if (/\p{Script=Arabic}/u.test(ch)) return 'arabic';
  if (/\p{Script=Hebrew}/u.test(ch)) return 'hebrew';
  return 'other';
}

const MAGNITUDES: Record<string, number> = {
  thousand: 1e3,
  million: 1e6,
  mn: 1e6,
  billion: 1e9,
  bn: 1e9,
  trillion: 1e12,
  тыс: 1e3,
  млн: 1e6,
  млрд: 1e9,
  трлн: 1e12,
  千: 1e3,
  万: 1e4,
  万亿: 1e12,
  萬: 1e4,
  百万: 1e6,
  千万: 1e7,
  亿: 1e8,
  億: 1e8,
  兆: 1e12,
  만: 1e4,
  억: 1e8,
  조: 1e12,
};
const MAGNITUDE = Object.keys(MAGNITUDES)
  .sort((a, b) => b.length - a.length)
  .join('|');
/** A number (thousands grouped by commas, dots or, as in Russian and French, spaces), and its magnitude word. */
const FIGURE = new RegExp(
  `(\\d{1,3}(?:[ \\u00a0\\u202f]\\d{3})+(?![\\d])(?:[.,]\\d+)?|\\d+(?:[.,]\\d+)*)(?:\\s*(${MAGNITUDE})(?![\\p{L}]*\\p{Script=Latin}))?`,
  'gu',
);
/** "1億2435万2千", "2.16万亿": one figure written in parts. */
const COMPOUND = /(?:\d+(?:\.\d+)?\s*(?:兆|万亿|億|亿|万|萬|千)){2,}/gu;

/**
 * The figures a text states, as values: "1,200" and "1200" are one; "3,5"
 * (a decimal comma) is 3.5; "3.5 billion", "3,500 million" and "35亿" are
 * one value; "３８％" is 38; Chinese numerals of two characters or more
 * ("三十", "两百") count; "three" to "twelve" are figures too. Read `asFound`
 * (a source's text), a scaled figure is also its bare number, so "3.5" in a
 * claim is found in "3.5 billion" (but "3.5 billion" is not found in "3.5
 * million"), and a precise one is also found rounded.
 */
export function figuresOf(text: string, asFound = false): string[] {
  const folded = fold(text);
  const found: string[] = [];
  // A page's precise figure is also found as a report rounds it ("69.3 billion" for 69.34): a
  // decimal or scaled figure, to three significant digits or more, never a year or a count.
  const add = (value: number, scale: number, written: string) => {
    found.push(canonical(value * scale));
    if (!asFound) return;
    if (scale !== 1) found.push(canonical(value));
    if (scale !== 1 || /[.,]\d+$/.test(written)) found.push(...roundings(value * scale));
  };
  for (const m of folded.matchAll(FIGURE)) {
    const value = numberValue(m[1]!);
    if (value !== null) add(value, m[2] ? MAGNITUDES[m[2]]! : 1, m[1]!);
  }
  for (const m of folded.matchAll(COMPOUND)) {
    let total = 0;
    for (const part of m[0].matchAll(/(\d+(?:\.\d+)?)\s*(兆|万亿|億|亿|万|萬|千)/gu))
      total += Number(part[1]) * MAGNITUDES[part[2]!]!;
    add(total, 1, '.0');
  }
  for (const m of folded.matchAll(/[零〇一二两三四五六七八九十百千]{2,}(万|亿|億)?/gu)) {
    const value = chineseNumeral(m[0].replace(/[万亿億]$/, ''));
    if (value !== null) add(value, m[1] ? MAGNITUDES[m[1]]! : 1, '');
  }
  for (const m of folded.matchAll(NUMBER_WORD)) found.push(String(NUMBER_WORDS.indexOf(m[0])));
  return found;
}

/** A value to three significant digits and more, short of its own precision. */
function roundings(value: number): string[] {
  const own = canonical(value);
  const out: string[] = [];
  for (let digits = 3; digits <= 6; digits++) {
    const rounded = canonical(Number(value.toPrecision(digits)));
    if (rounded === own) break;
    out.push(rounded);
  }
  return out;
}

function numberValue(grouped: string): number | null {
  const written = grouped.replace(/[ \u00a0\u202f]/g, '');
  let plain: string;
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(written)) plain = written.replace(/,/g, '');
  else if (/^\d{1,3}(\.\d{3})+,\d+$/.test(written)) plain = written.replace(/\./g, '').replace(',', '.');
  else if (/^\d+,\d+$/.test(written)) plain = written.replace(',', '.');
  else if (/^\d+(\.\d+)?$/.test(written)) plain = written;
  else plain = written.replace(/,/g, '');
  const value = Number(plain);
  return Number.isFinite(value) ? value : null;
}

function canonical(value: number): string {
  return String(Number(value.toPrecision(12)));
}

const DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

function chineseNumeral(text: string): number | null {
  let total = 0;
  let digit: number | null = null;
  for (const ch of text) {
    if (ch in DIGITS) digit = DIGITS[ch]!;
    else if (ch in UNITS) {
      total += (digit ?? 1) * UNITS[ch]!;
      digit = null;
    } else return null;
  }
  return total + (digit ?? 0);
}

/** What turns a statement around: it says something is not so, or moved one way rather than the other. */
export type Cue = 'negation' | 'up' | 'down';

const NEGATION_WORDS = new Set(
  `not no never none neither nor without cannot nobody nothing nowhere
   не нет ни без никогда
   nicht kein keine keinen keiner nie niemals ohne
   ne pas jamais sans aucun aucune
   nunca sin ningún ninguna nenhum nem não`.split(/\s+/),
);
/** Chinese, Japanese and Korean negation, inside words; the compounds that only look negative are taken out first. */
const UNSPACED_NEGATION = /[不没沒未无無非否]|ない|なかっ|ません|않|못|없/u;
const NOT_NEGATIONS =
  /非常|未满|未滿|未満|未来|未來|无论|無論|无线|無線|不断|不斷|不仅|不僅|不少|不过|不過|无人机|無人機/gu;

const UP =
  /^(increas|rise|rose|risen|rising|grew|grow|gain|higher|climb|jump|surg|soar|up$|рост|вырос|увелич|stieg|gestiegen|hausse|augment|aument|subi)/u;
const DOWN =
  /^(decreas|fell|fall|drop|declin|lower|down$|shrank|shrink|plung|slump|снизи|сниж|упал|падени|sank|gesunken|baisse|diminu|baj|cay)/u;
const UNSPACED_UP = /增|涨|漲|升|提高|上昇|上がっ|増加|증가|상승/u;
const UNSPACED_DOWN = /降|跌|减|減|下滑|下落|低下|감소|하락/u;

/** The cues a text carries (read with its words). */
export function cuesOf(text: string): Set<Cue> {
  const folded = fold(text);
  const cues = new Set<Cue>();
  for (const { segment, isWordLike } of WORDS.segment(folded)) {
    if (!isWordLike) continue;
    if (NEGATION_WORDS.has(segment) || /n['’]t$/.test(segment)) cues.add('negation');
    if (UP.test(segment)) cues.add('up');
    if (DOWN.test(segment)) cues.add('down');
  }
  const unspaced = (folded.match(UNSPACED_RUN) ?? []).join(' ').replace(NOT_NEGATIONS, ' ');
  if (UNSPACED_NEGATION.test(unspaced)) cues.add('negation');
  if (UNSPACED_UP.test(unspaced)) cues.add('up');
  if (UNSPACED_DOWN.test(unspaced)) cues.add('down');
  return cues;
}

/**
 * A passage says it the same way round: negated exactly when the claim is,
 * and moving in every direction the claim says things moved.
 */
export function sameWayRound(claim: Set<Cue>, passage: Set<Cue>): boolean {
  if (claim.has('negation') !== passage.has('negation')) return false;
  return [...claim].every((cue) => passage.has(cue));
}

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
/** "two" to "twelve" as whole words ("one" is too often not a figure). */
const NUMBER_WORD = new RegExp(`(?<![\\p{L}])(?:${NUMBER_WORDS.slice(2).join('|')})(?![\\p{L}])`, 'gu');

/** English inflections only (both sides the same way, so "prices"/"price" match but "grew"/"grows" do not). */
function stem(word: string): string {
  if (!/^\p{Script=Latin}+$/u.test(word)) return [...word].length > 7 ? [...word].slice(0, 6).join('') : word;
  if (word.length > 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es') && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Words that say little about what a sentence claims (the cues are read apart, see cuesOf). */
const STOPWORDS = new Set(
  `the and for are but not you all any can had her was one our out has him his how its may new now old see two who
   did get let put say she too use that with have this will your from they know want been good much some time very
   when come here just like long make many more most over such take than them well were what also into only other
   then there these their those would could should about after again against because before being below between
   both does doing down during each few further itself once same through under until which while whom why yours
   above off own don shouldn where within without upon per via among however although though whereas thus
   therefore according reported reports report says said stated states noted notes
   der die das und den dem des ein eine einer eines mit von für auf ist sind wurde wurden nicht auch als
   les des une est sont dans pour par avec sur qui que pas plus été
   los las una del por con para que está son como más
   это как что или его она они для при был была было были также`.split(/\s+/),
);
