/**
 * The cases of slackify-markdown's own test suite (jsarafajr/slackify-markdown,
 * __test__/slackify-markdown.test.js at 00f55b0, MIT licence, © Jarvis
 * Sarafajr and contributors): input Markdown and slackify's output, data only.
 * Its zero-width spaces around marks and trailing newline are left out here.
 * `ours` records where our rendering differs on purpose, and why.
 */
export interface SlackifyCase {
  name: string;
  markdown: string;
  slackify: string;
  ours?: { mrkdwn: string; why: string };
}

const EMPTY_LABEL = 'an empty label shows the URL as the label; titles are dropped (issue 13)';
const LOGO = 'https://bitbucket.org/repo/123/images/logo.png';

export const SLACKIFY_CASES: SlackifyCase[] = [
  { name: 'Simple text', markdown: 'hello world', slackify: 'hello world' },
  { name: 'Escaped text', markdown: '*h&ello>world<', slackify: '*h&amp;ello&gt;world&lt;' },
  {
    name: 'Definitions',
    markdown: 'hello\n\n[1]: http://atlassian.com\n\nworld\n\n[2]: http://atlassian.com',
    slackify: 'hello\n\nworld',
  },
  {
    name: 'Headings',
    markdown: '# heading 1\n## heading 2\n### heading 3',
    slackify: '*heading 1*\n\n*heading 2*\n\n*heading 3*',
  },
  { name: 'Bold', markdown: '**bold text**', slackify: '*bold text*' },
  { name: 'Bold character in word', markdown: 'he**l**lo', slackify: 'he*l*lo' },
  { name: 'Italic', markdown: '*italic text*', slackify: '_italic text_' },
  { name: 'Bold+Italic', markdown: '***bold+italic***', slackify: '_*bold+italic*_' },
  { name: 'Strike', markdown: '~~strike text~~', slackify: '~strike text~' },
  {
    name: 'Unordered list',
    markdown: '* list\n* list\n* list',
    slackify: '•   list\n•   list\n•   list',
    ours: { mrkdwn: '• list\n• list\n• list', why: 'one space after the bullet, as people type it in Slack' },
  },
  {
    name: 'Ordered list',
    markdown: '1. list\n2. list\n3. list',
    slackify: '1.  list\n2.  list\n3.  list',
    ours: { mrkdwn: '1. list\n2. list\n3. list', why: 'one space after the number' },
  },
  {
    name: 'Link with title',
    markdown: '[](http://atlassian.com "Atlassian")',
    slackify: '<http://atlassian.com|Atlassian>',
    ours: { mrkdwn: '<http://atlassian.com|http://atlassian.com>', why: EMPTY_LABEL },
  },
  {
    name: 'Link with alt',
    markdown: '[test](http://atlassian.com)',
    slackify: '<http://atlassian.com|test>',
  },
  {
    name: 'Link with alt and title',
    markdown: '[test](http://atlassian.com "Atlassian")',
    slackify: '<http://atlassian.com|test>',
  },
  {
    name: 'Link with angle bracket syntax',
    markdown: '<http://atlassian.com>',
    slackify: '<http://atlassian.com|http://atlassian.com>',
  },
  {
    name: 'Link with no alt nor title',
    markdown: '[](http://atlassian.com)',
    slackify: '<http://atlassian.com>',
    ours: {
      mrkdwn: '<http://atlassian.com|http://atlassian.com>',
      why: 'every link we build has a label; Slack shows both the same',
    },
  },
  { name: 'Link with invalid URL', markdown: '[test](/atlassian)', slackify: 'test' },
  {
    name: 'Link in reference style with alt',
    markdown: '[Atlassian]\n\n[atlassian]: http://atlassian.com',
    slackify: '<http://atlassian.com|Atlassian>',
  },
  {
    name: 'Link in reference style with custom label',
    markdown: '[][test]\n\n[test]: http://atlassian.com',
    slackify: '<http://atlassian.com>',
    ours: { mrkdwn: '<http://atlassian.com|http://atlassian.com>', why: EMPTY_LABEL },
  },
  {
    name: 'Link in reference style with alt and custom label',
    markdown: '[Atlassian][test]\n\n[test]: http://atlassian.com',
    slackify: '<http://atlassian.com|Atlassian>',
  },
  {
    name: 'Link in reference style with title',
    markdown: '[][test]\n\n[test]: http://atlassian.com "Title"',
    slackify: '<http://atlassian.com|Title>',
    ours: { mrkdwn: '<http://atlassian.com|http://atlassian.com>', why: EMPTY_LABEL },
  },
  {
    name: 'Link in reference style with alt and title',
    markdown: '[Atlassian]\n\n[atlassian]: http://atlassian.com "Title"',
    slackify: '<http://atlassian.com|Atlassian>',
  },
  {
    name: 'Link in reference style with invalid definition',
    markdown: '[Atlassian][test]\n\n[test]: /atlassian',
    slackify: 'Atlassian',
  },
  {
    name: 'Image with title',
    markdown: `![](${LOGO} "test")`,
    slackify: `<${LOGO}|test>`,
  },
  { name: 'Image with alt', markdown: `![logo.png](${LOGO})`, slackify: `<${LOGO}|logo.png>` },
  {
    name: 'Image with alt and title',
    markdown: `![logo.png](${LOGO} 'test')`,
    slackify: `<${LOGO}|logo.png>`,
  },
  {
    name: 'Image with no alt nor title',
    markdown: `![](${LOGO})`,
    slackify: `<${LOGO}>`,
    ours: { mrkdwn: `<${LOGO}|${LOGO}>`, why: 'every link we build has a label; Slack shows both the same' },
  },
  {
    name: 'Image with invalid URL',
    markdown: "![logo.png](/relative-path-logo.png 'test')",
    slackify: 'logo.png',
  },
  {
    name: 'Image in reference style with alt',
    markdown: `![Atlassian]\n\n[atlassian]: ${LOGO}`,
    slackify: `<${LOGO}|Atlassian>`,
  },
  {
    name: 'Image in reference style with custom label',
    markdown: `![][test]\n\n[test]: ${LOGO}`,
    slackify: `<${LOGO}>`,
    ours: { mrkdwn: `<${LOGO}|${LOGO}>`, why: 'every link we build has a label; Slack shows both the same' },
  },
  {
    name: 'Image in reference style with alt and custom label',
    markdown: `![Atlassian][test]\n\n[test]: ${LOGO}`,
    slackify: `<${LOGO}|Atlassian>`,
  },
  {
    name: 'Image in reference style with title',
    markdown: `![][test]\n\n[test]: ${LOGO} "Title"`,
    slackify: `<${LOGO}|Title>`,
  },
  {
    name: 'Image in reference style with alt and title',
    markdown: `![Atlassian]\n\n[atlassian]: ${LOGO} "Title"`,
    slackify: `<${LOGO}|Atlassian>`,
  },
  {
    name: 'Image in reference style with invalid definition',
    markdown: '![Atlassian][test]\n\n[test]: /relative-path-logo.png',
    slackify: 'Atlassian',
  },
  { name: 'Inline code', markdown: 'hello `world`', slackify: 'hello `world`' },
  { name: 'Code block', markdown: '```\ncode block\n```', slackify: '```\ncode block\n```' },
  {
    name: 'Code block with newlines',
    markdown: '```\ncode\n\n\nblock\n```',
    slackify: '```\ncode\n\n\nblock\n```',
  },
  {
    name: 'Code block with language',
    markdown: '```javascript\ncode block\n```',
    slackify: '```\ncode block\n```',
  },
  {
    name: 'Code block with deprecated language declaration',
    markdown: '```\n#!javascript\ncode block\n```',
    slackify: '```\ncode block\n```',
    ours: { mrkdwn: '```\n#!javascript\ncode block\n```', why: 'code is shown exactly as written' },
  },
];
