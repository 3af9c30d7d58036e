/**
 * Question pairs for the reuse match (bench/reuse.ts): the same research asked
 * again in other words, and questions on the same topic that ask something
 * else or on another topic altogether. Written by hand.
 */
export const SAME: [string, string][] = [
  [
    'How do heat pumps compare with gas boilers on running costs?',
    'Are heat pumps cheaper to run than gas boilers?',
  ],
  ['What changed in EU AI regulation this year?', 'What are this year’s changes to the EU AI regulation?'],
  [
    'Which open-source vector databases are used in production?',
    'What open-source vector databases do companies run in production?',
  ],
  ['How do tides work?', 'How do ocean tides work?'],
  ['What is the market size for electric bikes in Europe?', 'How big is the European electric bike market?'],
  [
    'What are the health effects of intermittent fasting?',
    'Intermittent fasting: what are its effects on health?',
  ],
  [
    'Which cloud providers offer the cheapest GPU instances?',
    'Cheapest GPU instances among cloud providers?',
  ],
  [
    'How does Postgres full-text search rank results?',
    'How are results ranked in Postgres full text search?',
  ],
  [
    'What are the risks of lithium-ion battery fires in homes?',
    'Home lithium-ion battery fires: what are the risks?',
  ],
  ['How did remote work change office rents in London?', 'What has remote work done to London office rents?'],
  ['What are the best practices for Kubernetes autoscaling?', 'Kubernetes autoscaling best practices'],
  ['Which countries have the highest solar power capacity?', 'Highest solar power capacity by country'],
];

export const DIFFERENT: [string, string][] = [
  [
    'How do heat pumps compare with gas boilers on running costs?',
    'How do heat pumps work in cold climates?',
  ],
  ['What changed in EU AI regulation this year?', 'What changed in US privacy law this year?'],
  [
    'Which open-source vector databases are used in production?',
    'Which open-source web frameworks are used in production?',
  ],
  ['How do tides work?', 'How do volcanoes form?'],
  [
    'What is the market size for electric bikes in Europe?',
    'What is the market size for electric cars in China?',
  ],
  ['What are the health effects of intermittent fasting?', 'What are the health effects of coffee?'],
  [
    'Which cloud providers offer the cheapest GPU instances?',
    'Which cloud providers have data centres in Africa?',
  ],
  ['How does Postgres full-text search rank results?', 'How does Postgres handle replication?'],
  ['What are the risks of lithium-ion battery fires in homes?', 'How are lithium-ion batteries recycled?'],
  ['How did remote work change office rents in London?', 'How did remote work change productivity?'],
  [
    'What are the best practices for Kubernetes autoscaling?',
    'What are the best practices for Terraform modules?',
  ],
  [
    'Which countries have the highest solar power capacity?',
    'Which countries have the highest wind power capacity?',
  ],
  // One term apart: a year, a contrasting term, a place, a label. Each asks something else.
  [
    'What is the market share of EV batteries in Europe in 2025?',
    'What is the market share of EV batteries in Europe in 2030?',
  ],
  ['How do heat pumps perform in cold climates?', 'How do heat pumps perform in warm climates?'],
  ['What limits kelp farming in region A?', 'What limits kelp storage in region B?'],
  ['How did remote work change office rents in Leeds?', 'How did remote work change office rents in York?'],
  [
    'What did the 2024 EU AI Act change for startups?',
    'What did the 2025 EU AI Act guidance change for startups?',
  ],
];
