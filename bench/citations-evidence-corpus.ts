/**
 * The harder half of the claim check's corpus (issue 52): statements in one
 * language citing pages in another (Chinese, Japanese and Russian statements
 * on English pages, English statements on Chinese and Japanese pages),
 * figures that sit in a table (as pages are kept: one row a line, cells
 * separated by " | "), and statements of several facts, each said in another
 * part of the page. Pages open with what real pages open with (navigation,
 * menus), so a page's first characters are not its evidence. Planted: changed
 * figures, a figure of another row, negations, a page that does not say it.
 */
import {
  type RealPage,
  type RealStatement,
  PAGES as SAME_LANGUAGE_PAGES,
} from './citations-languages-corpus.js';

/** What a statement tests, beside its language. */
export type Trait = 'cross-language' | 'table' | 'multi-fact';

export interface EvidenceStatement extends RealStatement {
  traits: Trait[];
  /** A claim in another language than its page: the key terms a model gives in the page's language. */
  terms?: string[];
}

const SECTIONS = [
  'Markets',
  'Commodities',
  'Metals',
  'Energy',
  'Currencies',
  'Rates',
  'Indices',
  'Funds',
  'Data',
  'Tools',
];
const MENU = Array.from({ length: 40 }, (_, i) => `${SECTIONS[i % 10]} ${Math.floor(i / 10) + 1}`).join(
  ' · ',
);

const NEW_PAGES: RealPage[] = [
  {
    id: 'en-gold',
    lang: 'en',
    title: 'Gold price history: annual closing prices',
    text: `Gold price history: annual closing prices
${MENU}
Sign in | Subscribe | Newsletters | Podcasts | Events | Careers | Contact us | Advertise | Help centre
Gold ended 2024 at its highest annual close on record, after central banks bought more than 1,000 tonnes for a third year running.
The table below gives the London PM fix on the last trading day of each year, in US dollars per troy ounce.
Year | Closing price (US$/oz) | Change |
2019 | 1,517.27 | 18.3% |
2020 | 1,887.60 | 24.4% |
2021 | 1,828.60 | -3.1% |
2022 | 1,824.02 | -0.3% |
2023 | 2,062.92 | 13.1% |
2024 | 2,623.84 | 27.2% |
Prices before 2019 are available to subscribers.
Related: silver, platinum, palladium`,
  },
  {
    id: 'en-insurers',
    lang: 'en',
    title: 'Largest insurance companies in the world by total assets, 2024',
    text: `Largest insurance companies in the world by total assets, 2024
Home > Rankings > Financial services > Insurance
The ranking below lists insurers by total assets at the end of their 2024 financial year, converted to US dollars at year-end exchange rates.
Rank | Company | Country | Total assets (US$ billion) |
1 | Allianz | Germany | 1,085.2 |
2 | Prudential Financial | United States | 735.6 |
3 | AXA | France | 709.7 |
4 | Ping An | China | 1,580.3 |
5 | Legal & General | United Kingdom | 698.1 |
Note: Ping An is ranked by insurance assets only; its banking arm is excluded from the ranking.
Berkshire Hathaway, whose insurance operations are part of a conglomerate, is not ranked.
Methodology | Sources | Download CSV`,
  },
];

export const PAGES: RealPage[] = [...SAME_LANGUAGE_PAGES, ...NEW_PAGES];

const s = (
  traits: Trait[],
  lang: RealStatement['lang'],
  cited: string,
  kind: RealStatement['kind'],
  text: string,
  quote?: string,
): EvidenceStatement => ({ traits, lang, cited, kind, text, ...(quote ? { quote } : {}) });

const X: Trait[] = ['cross-language'];
const T: Trait[] = ['table'];
const XT: Trait[] = ['cross-language', 'table'];
const M: Trait[] = ['multi-fact'];
const MT: Trait[] = ['multi-fact', 'table'];

export const STATEMENTS: EvidenceStatement[] = [
  // A statement in one language, a page in another: the figures find the place.
  s(
    XT,
    'zh',
    'en-gold',
    'correct',
    '2019–2024年期间，金价持续上涨，2024年年度收盘价达2,623.84美元/盎司。',
    '2024 | 2,623.84 | 27.2% |',
  ),
  s(
    X,
    'zh',
    'en-wind',
    'correct',
    '截至2023年底，英国在运营的海上风电装机容量为14.7吉瓦，仅次于中国。',
    'The United Kingdom had 14.7 GW of offshore wind capacity in operation at the end of 2023',
  ),
  s(
    X,
    'zh',
    'en-foundry',
    'correct',
    '台积电2023年资本支出为304.5亿美元，低于2022年的362.9亿美元。',
    'Capital expenditures for 2023 totalled US$30.45 billion, lower than the US$36.29 billion spent in 2022.',
  ),
  s(
    X,
    'zh',
    'en-foundry',
    'correct',
    '2023年台积电毛利率为54.4%，营业利益率为42.6%。',
    'Gross margin for the year was 54.4%, and operating margin was 42.6%.',
  ),
  s(
    XT,
    'ja',
    'en-insurers',
    'correct',
    '2024年の総資産で見ると、アリアンツは1兆852億ドルで首位だった。',
    '1 | Allianz | Germany | 1,085.2 |',
  ),
  s(
    X,
    'ja',
    'en-wind',
    'correct',
    '英国の洋上風力は2023年に国内電力の17%を供給し、2022年の13.8%から上昇した。',
    "Offshore wind generated 17% of the country's electricity in 2023, up from 13.8% in 2022",
  ),
  s(
    X,
    'ru',
    'en-wind',
    'correct',
    'Правительство Великобритании ставит цель в 50 ГВт офшорной ветроэнергетики к 2030 году, из них до 5 ГВт плавучих.',
    "The government's target, set in the British Energy Security Strategy of April 2022, is 50 GW of offshore wind by 2030, of which up to 5 GW is to be floating wind.",
  ),
  s(
    XT,
    'ru',
    'en-insurers',
    'correct',
    'Активы AXA на конец 2024 года составили 709,7 млрд долларов.',
    '3 | AXA | France | 709.7 |',
  ),
  s(
    X,
    'en',
    'zh-nev',
    'correct',
    'China sold 9.495 million new energy vehicles in 2023, up 37.9% year on year.',
    '2023年，新能源汽车产销分别完成958.7万辆和949.5万辆，同比分别增长35.8%和37.9%。',
  ),
  s(
    X,
    'en',
    'zh-dam',
    'correct',
    'The Three Gorges plant generated 111.8 billion kWh in 2020, a world record for a single hydropower station.',
    '2020年，三峡电站全年发电量达到1118亿千瓦时，创造了单座水电站年发电量的世界纪录。',
  ),
  s(
    X,
    'en',
    'ja-population',
    'correct',
    "Japan's population aged 65 and over was 36.227 million in October 2023, 29.1% of the total.",
    '65歳以上人口は3622万7千人で、総人口に占める割合は29.1%となり、過去最高となりました。',
  ),
  s(
    X,
    'en',
    'zh-tsmc',
    'correct',
    'Chips of 7 nanometres and below made up 58% of TSMC wafer revenue in 2023, up from 53% in 2022.',
    '7纳米及更先进制程合计占全年晶圆销售金额的58%，高于2022年的53%。',
  ),
  // No figures to find the place by: the words, in the page's language, find it.
  {
    ...s(
      X,
      'zh',
      'en-wind',
      'correct',
      '英国第五轮海上风电拍卖因行政执行价格过低，没有吸引到任何投标。',
      'Auction round 5, held in 2023, did not attract any bids for offshore wind because the administrative strike price of £44 per MWh was too low for developers facing higher costs.',
    ),
    terms: ['auction round', 'bids', 'offshore wind', 'administrative strike price', 'too low'],
  },
  {
    ...s(
      X,
      'ja',
      'en-insurers',
      'correct',
      'バークシャー・ハサウェイは、保険事業がコングロマリットの一部であるため、ランキングに含まれていない。',
      'Berkshire Hathaway, whose insurance operations are part of a conglomerate, is not ranked.',
    ),
    terms: ['Berkshire Hathaway', 'insurance operations', 'conglomerate', 'not ranked'],
  },
  {
    ...s(
      X,
      'en',
      'zh-dam',
      'correct',
      'Flood control, not power generation, is the main purpose of the Three Gorges project.',
      '三峡工程的主要功能是防洪，而不是发电；发电是其综合效益之一。',
    ),
    terms: ['三峡工程', '主要功能', '防洪', '发电'],
  },
  {
    ...s(
      X,
      'ru',
      'en-foundry',
      'correct',
      'TSMC не изменила долгосрочную цель по валовой марже.',
      'TSMC did not change its long-term gross margin target of 53% and higher.',
    ),
    terms: ['TSMC', 'long-term', 'gross margin target', 'did not change'],
  },
  // …and its planted errors.
  s(XT, 'zh', 'en-gold', 'changed_figure', '2024年金价年度收盘价达2,683.84美元/盎司，创历史新高。'),
  s(X, 'zh', 'en-foundry', 'changed_figure', '台积电2023年毛利率为57.4%。'),
  s(
    XT,
    'ja',
    'en-insurers',
    'misattributed',
    'プルデンシャル・ファイナンシャルの2024年末の総資産は1兆852億ドルだった。',
  ),
  s(
    X,
    'ru',
    'en-wind',
    'negated',
    'Аукцион пятого раунда в 2023 году привлёк заявки на офшорную ветроэнергетику по цене 44 фунта за МВт·ч.',
  ),
  s(
    X,
    'en',
    'zh-nev',
    'changed_figure',
    'China sold 9.495 million new energy vehicles in 2023, up 47.9% year on year.',
  ),
  s(
    X,
    'en',
    'zh-dam',
    'swapped',
    'Japan raised its short-term interest rate to between 0 and 0.1% in March 2024.',
  ),
  // Figures in a table, in the page's own language.
  s(
    T,
    'en',
    'en-insurers',
    'correct',
    'Allianz was the largest insurer by total assets in 2024, with $1,085.2 billion.',
    '1 | Allianz | Germany | 1,085.2 |',
  ),
  s(
    T,
    'en',
    'en-gold',
    'correct',
    'Gold closed 2023 at $2,062.92 an ounce, a rise of 13.1% over the year.',
    '2023 | 2,062.92 | 13.1% |',
  ),
  s(
    T,
    'en',
    'en-wind',
    'correct',
    'Hornsea 1, completed in 2020, has a capacity of 1.22 GW.',
    '| Hornsea 1 | 1.22 GW | 2020 |',
  ),
  s(
    T,
    'ru',
    'ru-wheat',
    'correct',
    'На Египет пришлось 18% российского экспорта пшеницы.',
    '| Египет | 18% |',
  ),
  s(
    T,
    'en',
    'en-insurers',
    'changed_figure',
    'Allianz held total assets of $1,185.2 billion at the end of 2024.',
  ),
  s(
    T,
    'en',
    'en-insurers',
    'misattributed',
    'Prudential Financial held total assets of $1,085.2 billion at the end of 2024.',
  ),
  s(T, 'en', 'en-gold', 'changed_figure', 'Gold closed 2021 at $1,887.60 an ounce.'),
  // Several facts, each in another part of the page.
  s(
    M,
    'en',
    'en-wind',
    'correct',
    'The UK had 14.7 GW of offshore wind at the end of 2023, which generated 17% of its electricity that year, and it aims for 50 GW by 2030.',
    'The United Kingdom had 14.7 GW of offshore wind capacity in operation at the end of 2023',
  ),
  s(
    M,
    'en',
    'en-foundry',
    'correct',
    "In 2023 TSMC's gross margin was 54.4%, 3-nanometre chips made up 6% of wafer revenue, and capital expenditure came to US$30.45 billion.",
    'Gross margin for the year was 54.4%, and operating margin was 42.6%.',
  ),
  s(
    MT,
    'en',
    'en-insurers',
    'correct',
    'The three largest insurers by total assets in 2024 were Allianz ($1,085.2B), Prudential Financial ($735.6B) and AXA ($709.7B).',
    '1 | Allianz | Germany | 1,085.2 |',
  ),
  s(
    MT,
    'en',
    'en-gold',
    'correct',
    'Gold closed 2019 at $1,517.27 an ounce and 2024 at $2,623.84, after central banks bought more than 1,000 tonnes a year.',
    'Gold ended 2024 at its highest annual close on record, after central banks bought more than 1,000 tonnes for a third year running.',
  ),
  s(
    M,
    'zh',
    'zh-nev',
    'correct',
    '2023年新能源汽车销量949.5万辆，市场占有率达到31.6%，出口120.3万辆。',
    '2023年，新能源汽车产销分别完成958.7万辆和949.5万辆，同比分别增长35.8%和37.9%。',
  ),
  s(
    M,
    'en',
    'en-wind',
    'changed_figure',
    'The UK had 14.7 GW of offshore wind at the end of 2023, which generated 19% of its electricity that year, and it aims for 50 GW by 2030.',
  ),
];
