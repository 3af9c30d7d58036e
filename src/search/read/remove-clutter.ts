type Document = ReturnType<typeof import('linkedom').parseHTML>['document'];
type Element = NonNullable<Document['body']>;

/** Page furniture, removed only when the whole body is used instead of an article. */
const CHROME =
  'script, style, noscript, template, svg, nav, header, footer, aside, form, iframe, [role="navigation"], [aria-hidden="true"]';

/**
 * Class and id tokens of ads, consent banners, newsletter and paywall prompts
 * that Readability's own heuristics let through when they sit inside the
 * article. Whole tokens only: "has-paywall-meter", "not-sponsored" or
 * "flag-newsletterInline-on" describe a page, not a box to remove.
 */
const CLUTTER_TOKEN =
  /^(?:ads?|adverts?|advertisement|advertising|ad[-_](?:slot|container|unit|wrapper|banner|box|placeholder)(?:[-_]\w+)?|google_ads\w*|sponsored(?:[-_](?:content|post|links?))?|cookie[-_]?(?:banner|consent|notice|bar|popup)|newsletter(?:[-_](?:signup|form|cta|box|promo))?|paywall(?:[-_](?:prompt|banner|modal))?)$/i;

/** Elements that hold the page's content: never removed, nor is anything containing them. */
const CONTENT = 'main, article, [role="main"], [itemprop="articleBody"]';
const NEVER = new Set(['HTML', 'HEAD', 'BODY', 'MAIN', 'ARTICLE']);
/** An element holding more than this share of the body's text is content, whatever its name. */
const CONTENT_SHARE = 0.5;

/** Removes ads and banners (by class/id token) and, when asked, page chrome, never the content itself. */
export function removeClutter(document: Document, options: { chrome: boolean }): void {
  const body = document.body;
  if (!body) return;
  const bodyChars = textLength(body);
  const doomed: Element[] = [];
  if (options.chrome) doomed.push(...(document.querySelectorAll(CHROME) as Iterable<Element>));
  for (const element of document.querySelectorAll('[class], [id]') as Iterable<Element>) {
    if (isClutter(element)) doomed.push(element);
  }
  for (const element of doomed) {
    if (NEVER.has(element.tagName) || element.querySelector(CONTENT)) continue;
    if (bodyChars > 0 && textLength(element) > bodyChars * CONTENT_SHARE) continue;
    element.remove();
  }
}

function isClutter(element: Element): boolean {
  const tokens = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`.split(/\s+/);
  return tokens.some((token) => CLUTTER_TOKEN.test(token));
}

const textLength = (element: Element) => (element.textContent ?? '').replace(/\s+/g, '').length;
