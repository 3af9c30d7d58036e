/**
 * Real statements on real pages, in four languages: public facts (annual
 * reports, statistics offices, central banks, encyclopaedias) as pages
 * present them — a title, navigation, tables, long sentences — and
 * statements as deep-research reports write them: paraphrased, rounded,
 * sometimes in another language than the page. Planted among them:
 * statements negated or turned around, figures changed, and statements
 * cited to a page that does not say them, and figures the page gives for
 * something else (a total stated as one segment's). `quote` is the page's sentence a
 * careful judge would copy (with the marks a model changes when copying).
 */
export type Language = 'en' | 'zh' | 'ja' | 'ru';

export interface RealPage {
  id: string;
  lang: Language;
  title: string;
  text: string;
}

export interface RealStatement {
  lang: Language;
  text: string;
  /** The page the report cites. */
  cited: string;
  /** `misattributed`: the page has its figures, said of something else. */
  kind: 'correct' | 'negated' | 'changed_figure' | 'swapped' | 'misattributed';
  /** For a correct statement: the sentence of the page that says it, as a judge might copy it. */
  quote?: string;
}

export const PAGES: RealPage[] = [
  {
    id: 'en-wind',
    lang: 'en',
    title: 'Offshore wind in the United Kingdom',
    text: `Offshore wind in the United Kingdom
Home | Energy | Renewables | Statistics
The United Kingdom had 14.7 GW of offshore wind capacity in operation at the end of 2023, the second largest fleet in the world after China.
| Wind farm | Capacity | Completed |
| Hornsea 2 | 1.32 GW | 2022 |
| Hornsea 1 | 1.22 GW | 2020 |
| Moray East | 0.95 GW | 2022 |
When Hornsea 2 was completed in 2022, its 165 turbines made it the largest offshore wind farm in the world, a title it took from its neighbour Hornsea 1.
The government's target, set in the British Energy Security Strategy of April 2022, is 50 GW of offshore wind by 2030, of which up to 5 GW is to be floating wind.
Offshore wind generated 17% of the country's electricity in 2023, up from 13.8% in 2022, according to the Department for Energy Security and Net Zero.
Auction round 5, held in 2023, did not attract any bids for offshore wind because the administrative strike price of £44 per MWh was too low for developers facing higher costs.
Dogger Bank, under construction in the North Sea about 130 km off the Yorkshire coast, will have a capacity of 3.6 GW when its three phases are complete.
Share this page`,
  },
  {
    id: 'en-foundry',
    lang: 'en',
    title: 'TSMC annual results 2023',
    text: `TSMC annual results 2023
Investors > Financial results > 2023
Taiwan Semiconductor Manufacturing Company reported net revenue of NT$2.16 trillion for 2023, or US$69.30 billion, a decrease of 4.5% in New Taiwan dollars compared with 2022.
Gross margin for the year was 54.4%, and operating margin was 42.6%.
Shipments of 3-nanometre technology accounted for 6% of total wafer revenue in 2023; 5-nanometre accounted for 33% and 7-nanometre for 19%.
Advanced technologies, defined as 7-nanometre and more advanced, accounted for 58% of total wafer revenue, up from 53% in 2022.
Capital expenditures for 2023 totalled US$30.45 billion, lower than the US$36.29 billion spent in 2022.
By platform, high-performance computing overtook smartphones as the largest contributor, at 43% of revenue against 38% for smartphones.
TSMC did not change its long-term gross margin target of 53% and higher.
Download the annual report (PDF)`,
  },
  {
    id: 'zh-tsmc',
    lang: 'zh',
    title: '台积电2023年财报',
    text: `台积电2023年财报
首页 > 财经 > 半导体
台积电公布2023年全年营收为2.16万亿新台币，折合约693亿美元，以新台币计较2022年下降4.5%。
全年毛利率为54.4%，营业利益率为42.6%。
以制程来看，3纳米制程出货占2023年全年晶圆销售金额的6%，5纳米占33%，7纳米占19%。
7纳米及更先进制程合计占全年晶圆销售金额的58%，高于2022年的53%。
| 平台 | 营收占比 |
| 高效能运算 | 43% |
| 智能手机 | 38% |
高效能运算首次超越智能手机，成为台积电最大的营收来源。
台积电2023年资本支出为304.5亿美元，低于2022年的362.9亿美元。
公司并未调整长期毛利率53%以上的目标。`,
  },
  {
    id: 'zh-nev',
    lang: 'zh',
    title: '2023年中国新能源汽车产销情况',
    text: `2023年中国新能源汽车产销情况
中国汽车工业协会 发布时间：2024年1月11日
2023年，新能源汽车产销分别完成958.7万辆和949.5万辆，同比分别增长35.8%和37.9%。
新能源汽车市场占有率达到31.6%，高于上年同期5.9个百分点。
在出口方面，新能源汽车出口120.3万辆，同比增长77.6%。
纯电动汽车销量668.5万辆，同比增长24.6%；插电式混合动力汽车销量280.4万辆，同比增长84.7%。
| 类别 | 销量（万辆） | 同比增长 |
| 纯电动 | 668.5 | 24.6% |
| 插电混动 | 280.4 | 84.7% |
中国汽车工业协会预计，2024年新能源汽车销量将达到1150万辆左右。
相关阅读 更多新闻`,
  },
  {
    id: 'zh-dam',
    lang: 'zh',
    title: '三峡水电站',
    text: `三峡水电站
百科 > 水利工程
三峡水电站位于湖北省宜昌市，是世界上装机容量最大的水电站，总装机容量为2250万千瓦。
大坝为混凝土重力坝，坝顶长度2309米，坝顶高程185米。
2020年，三峡电站全年发电量达到1118亿千瓦时，创造了单座水电站年发电量的世界纪录。
三峡工程于1994年正式动工，2012年7月最后一台机组投产。
三峡船闸为双线五级船闸，是世界上规模最大的船闸之一。
三峡工程的主要功能是防洪，而不是发电；发电是其综合效益之一。`,
  },
  {
    id: 'ja-population',
    lang: 'ja',
    title: '人口推計（2023年10月1日現在）',
    text: `人口推計（2023年10月1日現在）
総務省統計局 > 統計データ > 人口推計
2023年10月1日現在の総人口は1億2435万2千人で、前年に比べ59万5千人の減少となり、13年連続で減少しました。
日本人人口は1億2119万3千人で、前年に比べ83万7千人減少し、12年連続で減少幅が拡大しています。
65歳以上人口は3622万7千人で、総人口に占める割合は29.1%となり、過去最高となりました。
15歳未満人口は1417万3千人で、総人口に占める割合は11.4%と過去最低となりました。
| 区分 | 人口 | 割合 |
| 15歳未満 | 1417万3千人 | 11.4% |
| 65歳以上 | 3622万7千人 | 29.1% |
都道府県別では、東京都のみが人口増加となり、46道府県では減少しました。`,
  },
  {
    id: 'ja-boj',
    lang: 'ja',
    title: '日本銀行、マイナス金利政策を解除',
    text: `日本銀行、マイナス金利政策を解除
ニュース > 経済 > 2024年3月19日
日本銀行は2024年3月19日の金融政策決定会合で、マイナス金利政策を解除し、短期金利を0〜0.1%程度とすることを決めました。
利上げは2007年2月以来、17年ぶりとなります。
長期金利を低く抑えるイールドカーブ・コントロールも撤廃し、上場投資信託（ETF）の新たな買い入れも終了しました。
一方で、日銀は長期国債の買い入れについては、これまでと概ね同程度の金額で継続するとしました。
植田和男総裁は記者会見で、当面は緩和的な金融環境が継続するとの見方を示しました。
関連記事`,
  },
  {
    id: 'ru-wheat',
    lang: 'ru',
    title: 'Экспорт пшеницы из России',
    text: `Экспорт пшеницы из России
Главная / Экономика / Сельское хозяйство
В сельскохозяйственном сезоне 2022/23 Россия экспортировала рекордные 47,5 млн тонн пшеницы и осталась крупнейшим экспортёром пшеницы в мире.
Урожай пшеницы в 2022 году составил 104,2 млн тонн, что стало историческим максимумом.
Крупнейшими покупателями российской пшеницы были Египет и Турция.
| Страна | Доля |
| Египет | 18% |
| Турция | 15% |
Экспортная пошлина на пшеницу, введённая в 2021 году, не была отменена и продолжала действовать в течение всего сезона.
Читайте также`,
  },
  {
    id: 'ru-baikal',
    lang: 'ru',
    title: 'Озеро Байкал',
    text: `Озеро Байкал
Энциклопедия > География > Озёра
Байкал — самое глубокое озеро на планете: его наибольшая глубина составляет 1642 метра.
В озере содержится около 23 615 км³ воды, что составляет примерно 20% мировых запасов пресной поверхностной воды.
Площадь водной поверхности Байкала — 31 722 км², а длина озера — 636 км.
В 1996 году Байкал был включён в список объектов Всемирного наследия ЮНЕСКО.
Из Байкала вытекает только одна река — Ангара, тогда как впадает в него более 300 рек.`,
  },
];

const s = (
  lang: Language,
  cited: string,
  kind: RealStatement['kind'],
  text: string,
  quote?: string,
): RealStatement => ({ lang, cited, kind, text, ...(quote ? { quote } : {}) });

export const STATEMENTS: RealStatement[] = [
  // English, on English pages
  s(
    'en',
    'en-wind',
    'correct',
    'The UK had 14.7 GW of offshore wind capacity operating at the end of 2023, second only to China.',
    'The United Kingdom had 14.7 GW of offshore wind capacity in operation at the end of 2023, the second largest fleet in the world after China.',
  ),
  s(
    'en',
    'en-wind',
    'correct',
    'Hornsea 2, completed in 2022 with 165 turbines, became the largest offshore wind farm in the world.',
    'When Hornsea 2 was completed in 2022, its 165 turbines made it the largest offshore wind farm in the world…',
  ),
  s(
    'en',
    'en-wind',
    'correct',
    'The government targets 50 GW of offshore wind by 2030, including up to 5 GW of floating wind.',
    'The government’s target, set in the British Energy Security Strategy of April 2022, is 50 GW of offshore wind by 2030, of which up to 5 GW is to be floating wind.',
  ),
  s(
    'en',
    'en-wind',
    'correct',
    "Offshore wind supplied 17% of the country's electricity in 2023, up from 13.8% a year earlier.",
    "offshore wind generated 17% of the country's electricity in 2023, up from 13.8% in 2022",
  ),
  s(
    'en',
    'en-wind',
    'correct',
    'Auction round 5 in 2023 attracted no offshore wind bids because the £44 per MWh strike price was too low.',
    'Auction round 5, held in 2023, did not attract any bids for offshore wind because the administrative strike price of £44 per MWh was too low for developers facing higher costs.',
  ),
  s(
    'en',
    'en-wind',
    'negated',
    'The UK did not have 14.7 GW of offshore wind capacity operating at the end of 2023.',
  ),
  s(
    'en',
    'en-wind',
    'negated',
    'Auction round 5 in 2023 attracted offshore wind bids because the £44 per MWh strike price was high enough for developers.',
  ),
  s(
    'en',
    'en-wind',
    'changed_figure',
    'The government targets 40 GW of offshore wind by 2030, including up to 5 GW of floating wind.',
  ),
  s(
    'en',
    'en-wind',
    'changed_figure',
    "Offshore wind supplied 19% of the country's electricity in 2023, up from 13.8% a year earlier.",
  ),
  s(
    'en',
    'en-wind',
    'swapped',
    'TSMC reported net revenue of US$69.30 billion for 2023, a decrease of 4.5% from 2022.',
  ),
  s(
    'en',
    'en-foundry',
    'correct',
    'TSMC reported net revenue of NT$2.16 trillion (US$69.3 billion) for 2023, down 4.5% in local currency.',
    'Taiwan Semiconductor Manufacturing Company reported net revenue of NT$2.16 trillion for 2023, or US$69.30 billion, a decrease of 4.5% in New Taiwan dollars compared with 2022.',
  ),
  s(
    'en',
    'en-foundry',
    'correct',
    "TSMC's 3-nanometre technology made up 6% of its wafer revenue in 2023.",
    'Shipments of 3-nanometre technology accounted for 6% of total wafer revenue in 2023',
  ),
  s(
    'en',
    'en-foundry',
    'correct',
    'Advanced technologies of 7 nm and below reached 58% of total wafer revenue in 2023, up from 53% in 2022.',
    'Advanced technologies, defined as 7-nanometre and more advanced, accounted for 58% of total wafer revenue, up from 53% in 2022.',
  ),
  s(
    'en',
    'en-foundry',
    'correct',
    'High-performance computing overtook smartphones as the largest platform, with 43% of revenue against 38%.',
    'By platform, high-performance computing overtook smartphones as the largest contributor, at 43% of revenue against 38% for smartphones.',
  ),
  s(
    'en',
    'en-foundry',
    'correct',
    'Capital expenditures fell to US$30.45 billion in 2023 from US$36.29 billion in 2022.',
    'Capital expenditures for 2023 totalled US$30.45 billion, lower than the US$36.29 billion spent in 2022.',
  ),
  s('en', 'en-foundry', 'negated', 'TSMC changed its long-term gross margin target of 53% and higher.'),
  s(
    'en',
    'en-foundry',
    'negated',
    'Smartphones remained the largest contributor to TSMC revenue, ahead of high-performance computing, at 43% against 38%.',
  ),
  s(
    'en',
    'en-foundry',
    'changed_figure',
    'Gross margin for the year was 56.4%, and operating margin was 42.6%.',
  ),
  s(
    'en',
    'en-foundry',
    'changed_figure',
    "TSMC's 3-nanometre technology made up 9% of its wafer revenue in 2023.",
  ),
  s(
    'en',
    'en-foundry',
    'swapped',
    'Dogger Bank, about 130 km off the Yorkshire coast, will have a capacity of 3.6 GW when complete.',
  ),
  s(
    'en',
    'en-foundry',
    'misattributed',
    "TSMC's smartphone business earned US$69.30 billion in 2023, a decrease of 4.5%.",
  ),
  s(
    'en',
    'en-wind',
    'misattributed',
    'Hornsea 1 had 165 turbines and a capacity of 1.32 GW when completed in 2022.',
  ),
  // English statements citing pages in other languages
  s(
    'en',
    'zh-nev',
    'correct',
    'China sold 9.495 million new energy vehicles in 2023, up 37.9% year on year.',
    '新能源汽车产销分别完成958.7万辆和949.5万辆，同比分别增长35.8%和37.9%。',
  ),
  s(
    'en',
    'ja-population',
    'correct',
    "Japan's population aged 65 and over reached 29.1% of the total in 2023, a record high.",
    '65歳以上人口は3622万7千人で、総人口に占める割合は29.1%となり、過去最高となりました。',
  ),
  s(
    'en',
    'ru-baikal',
    'correct',
    'Lake Baikal is the deepest lake on the planet, with a maximum depth of 1,642 metres.',
    'Байкал — самое глубокое озеро на планете: его наибольшая глубина составляет 1642 метра.',
  ),
  s(
    'en',
    'ru-wheat',
    'changed_figure',
    'Russia exported a record 45.5 million tonnes of wheat in the 2022/23 season.',
  ),
  s(
    'en',
    'zh-nev',
    'changed_figure',
    'China exported 1.5 million new energy vehicles in 2023, up 77.6% year on year.',
  ),
  // Chinese
  s(
    'zh',
    'zh-tsmc',
    'correct',
    '台积电2023年营收为2.16万亿新台币，约合693亿美元，以新台币计同比下降4.5%。',
    '台积电公布2023年全年营收为2.16万亿新台币，折合约693亿美元，以新台币计较2022年下降4.5%。',
  ),
  s(
    'zh',
    'zh-tsmc',
    'correct',
    '2023年台积电3纳米制程占晶圆销售金额的6%。',
    '3纳米制程出货占2023年全年晶圆销售金额的6%',
  ),
  s(
    'zh',
    'zh-tsmc',
    'correct',
    '7纳米及以下先进制程占全年晶圆销售金额的58%，高于2022年的53%。',
    '7纳米及更先进制程合计占全年晶圆销售金额的58%，高于2022年的53%。',
  ),
  s(
    'zh',
    'zh-tsmc',
    'correct',
    '台积电2023年资本支出为304.5亿美元，低于2022年的362.9亿美元。',
    '台积电2023年资本支出为304.5亿美元，低于2022年的362.9亿美元。',
  ),
  s('zh', 'zh-tsmc', 'negated', '台积电2023年营收没有下降，以新台币计同比增长4.5%。'),
  s('zh', 'zh-tsmc', 'negated', '公司调整了长期毛利率53%以上的目标。'),
  s('zh', 'zh-tsmc', 'changed_figure', '台积电2023年全年毛利率为56.4%，营业利益率为42.6%。'),
  s('zh', 'zh-tsmc', 'swapped', '2023年新能源汽车市场占有率达到31.6%。'),
  s(
    'zh',
    'zh-nev',
    'correct',
    '2023年中国新能源汽车产销分别为958.7万辆和949.5万辆，同比增长35.8%和37.9%。',
    '2023年，新能源汽车产销分别完成958.7万辆和949.5万辆，同比分别增长35.8%和37.9%。',
  ),
  s(
    'zh',
    'zh-nev',
    'correct',
    '新能源汽车市场占有率达到31.6%，比上年提高5.9个百分点。',
    '新能源汽车市场占有率达到31.6%，高于上年同期5.9个百分点。',
  ),
  s(
    'zh',
    'zh-nev',
    'correct',
    '2023年新能源汽车出口120.3万辆，同比增长77.6%。',
    '在出口方面，新能源汽车出口120.3万辆，同比增长77.6%。',
  ),
  s(
    'zh',
    'zh-nev',
    'correct',
    '插电式混合动力汽车销量为280.4万辆，同比增长84.7%。',
    '插电式混合动力汽车销量280.4万辆，同比增长84.7%。',
  ),
  s('zh', 'zh-nev', 'negated', '2023年新能源汽车出口120.3万辆，同比下降77.6%。'),
  s('zh', 'zh-nev', 'changed_figure', '2023年新能源汽车出口130.3万辆，同比增长77.6%。'),
  s('zh', 'zh-nev', 'changed_figure', '纯电动汽车销量668.5万辆，同比增长34.6%。'),
  s('zh', 'zh-nev', 'swapped', '三峡电站总装机容量为2250万千瓦，是世界上装机容量最大的水电站。'),
  s(
    'zh',
    'zh-dam',
    'correct',
    '三峡水电站是世界上装机容量最大的水电站，总装机容量2250万千瓦。',
    '三峡水电站位于湖北省宜昌市，是世界上装机容量最大的水电站，总装机容量为2250万千瓦。',
  ),
  s(
    'zh',
    'zh-dam',
    'correct',
    '2020年三峡电站发电量达到1118亿千瓦时，创单座水电站年发电量世界纪录。',
    '2020年，三峡电站全年发电量达到1118亿千瓦时，创造了单座水电站年发电量的世界纪录。',
  ),
  s(
    'zh',
    'zh-dam',
    'correct',
    '三峡大坝坝顶长度为2309米，坝顶高程185米。',
    '大坝为混凝土重力坝，坝顶长度2309米，坝顶高程185米。',
  ),
  s('zh', 'zh-dam', 'negated', '三峡水电站不是世界上装机容量最大的水电站。'),
  s('zh', 'zh-dam', 'negated', '三峡工程的主要功能是发电，而不是防洪。'),
  s('zh', 'zh-dam', 'changed_figure', '三峡大坝坝顶长度为2390米，坝顶高程185米。'),
  s('zh', 'zh-tsmc', 'misattributed', '台积电智能手机业务2023年营收为2.16万亿新台币，同比下降4.5%。'),
  s('zh', 'zh-nev', 'misattributed', '2023年纯电动汽车出口120.3万辆，同比增长77.6%。'),
  // Chinese statements citing English pages
  s(
    'zh',
    'en-foundry',
    'correct',
    '台积电2023年净营收为693亿美元，以新台币计下降4.5%。',
    'Taiwan Semiconductor Manufacturing Company reported net revenue of NT$2.16 trillion for 2023, or US$69.30 billion, a decrease of 4.5% in New Taiwan dollars compared with 2022.',
  ),
  s(
    'zh',
    'en-wind',
    'correct',
    '英国2023年底在运营的海上风电装机容量为14.7吉瓦，仅次于中国。',
    'The United Kingdom had 14.7 GW of offshore wind capacity in operation at the end of 2023, the second largest fleet in the world after China.',
  ),
  s('zh', 'en-wind', 'changed_figure', '英国政府的目标是到2030年实现60吉瓦海上风电。'),
  // Japanese
  s(
    'ja',
    'ja-population',
    'correct',
    '2023年10月1日現在の日本の総人口は1億2435万2千人で、13年連続の減少となった。',
    '2023年10月1日現在の総人口は1億2435万2千人で、前年に比べ59万5千人の減少となり、13年連続で減少しました。',
  ),
  s(
    'ja',
    'ja-population',
    'correct',
    '65歳以上人口の割合は29.1%で過去最高となった。',
    '65歳以上人口は3622万7千人で、総人口に占める割合は29.1%となり、過去最高となりました。',
  ),
  s(
    'ja',
    'ja-population',
    'correct',
    '15歳未満人口は1417万3千人で、総人口の11.4%と過去最低だった。',
    '15歳未満人口は1417万3千人で、総人口に占める割合は11.4%と過去最低となりました。',
  ),
  s(
    'ja',
    'ja-population',
    'correct',
    '日本人人口は前年より83万7千人減少した。',
    '日本人人口は1億2119万3千人で、前年に比べ83万7千人減少し、12年連続で減少幅が拡大しています。',
  ),
  s(
    'ja',
    'ja-population',
    'negated',
    '2023年10月1日現在の総人口は1億2435万2千人で、前年に比べ減少しなかった。',
  ),
  s('ja', 'ja-population', 'changed_figure', '65歳以上人口の割合は31.1%で過去最高となった。'),
  s('ja', 'ja-population', 'misattributed', '15歳未満人口の割合は29.1%となり、過去最高となった。'),
  s('ja', 'ja-population', 'swapped', '日本銀行は2024年3月にマイナス金利政策を解除した。'),
  s(
    'ja',
    'ja-boj',
    'correct',
    '日本銀行は2024年3月19日にマイナス金利政策を解除し、短期金利を0〜0.1%程度とした。',
    '日本銀行は2024年3月19日の金融政策決定会合で、マイナス金利政策を解除し、短期金利を0〜0.1%程度とすることを決めました。',
  ),
  s(
    'ja',
    'ja-boj',
    'correct',
    '今回の利上げは2007年2月以来17年ぶりとなる。',
    '利上げは2007年2月以来、17年ぶりとなります。',
  ),
  s(
    'ja',
    'ja-boj',
    'correct',
    '日銀はイールドカーブ・コントロールを撤廃し、ETFの新規買い入れも終了した。',
    '長期金利を低く抑えるイールドカーブ・コントロールも撤廃し、上場投資信託（ETF）の新たな買い入れも終了しました。',
  ),
  s('ja', 'ja-boj', 'negated', '日本銀行は2024年3月19日にマイナス金利政策を解除しなかった。'),
  s('ja', 'ja-boj', 'changed_figure', '今回の利上げは2007年2月以来19年ぶりとなる。'),
  // Russian
  s(
    'ru',
    'ru-wheat',
    'misattributed',
    'Экспорт пшеницы в Египет в сезоне 2022/23 составил рекордные 47,5 млн тонн.',
  ),
  s(
    'ru',
    'ru-wheat',
    'correct',
    'В сезоне 2022/23 Россия экспортировала рекордные 47,5 млн тонн пшеницы, оставаясь крупнейшим экспортёром в мире.',
    'В сельскохозяйственном сезоне 2022/23 Россия экспортировала рекордные 47,5 млн тонн пшеницы и осталась крупнейшим экспортёром пшеницы в мире.',
  ),
  s(
    'ru',
    'ru-wheat',
    'correct',
    'Урожай пшеницы в России в 2022 году достиг исторического максимума — 104,2 млн тонн.',
    'Урожай пшеницы в 2022 году составил 104,2 млн тонн, что стало историческим максимумом.',
  ),
  s(
    'ru',
    'ru-wheat',
    'correct',
    'Экспортная пошлина на пшеницу, введённая в 2021 году, продолжала действовать весь сезон и не была отменена.',
    'Экспортная пошлина на пшеницу, введённая в 2021 году, не была отменена и продолжала действовать в течение всего сезона.',
  ),
  s(
    'ru',
    'ru-wheat',
    'negated',
    'В сезоне 2022/23 Россия не была крупнейшим экспортёром пшеницы в мире, экспортировав 47,5 млн тонн.',
  ),
  s(
    'ru',
    'ru-wheat',
    'changed_figure',
    'Урожай пшеницы в России в 2022 году достиг исторического максимума — 101,2 млн тонн.',
  ),
  s(
    'ru',
    'ru-wheat',
    'swapped',
    'Площадь водной поверхности Байкала составляет 31 722 км², а длина озера — 636 км.',
  ),
  s(
    'ru',
    'ru-baikal',
    'correct',
    'Наибольшая глубина Байкала — 1642 метра, это самое глубокое озеро на планете.',
    'Байкал — самое глубокое озеро на планете: его наибольшая глубина составляет 1642 метра.',
  ),
  s(
    'ru',
    'ru-baikal',
    'correct',
    'Байкал содержит около 23 615 км³ воды — примерно 20% мировых запасов пресной поверхностной воды.',
    'В озере содержится около 23 615 км³ воды, что составляет примерно 20% мировых запасов пресной поверхностной воды.',
  ),
  s(
    'ru',
    'ru-baikal',
    'correct',
    'Байкал включён в список объектов Всемирного наследия ЮНЕСКО в 1996 году.',
    'В 1996 году Байкал был включён в список объектов Всемирного наследия ЮНЕСКО.',
  ),
  s(
    'ru',
    'ru-baikal',
    'negated',
    'Байкал не является самым глубоким озером на планете, хотя его наибольшая глубина составляет 1642 метра.',
  ),
  s(
    'ru',
    'ru-baikal',
    'changed_figure',
    'Площадь водной поверхности Байкала составляет 32 722 км², а длина озера — 636 км.',
  ),
  s(
    'ru',
    'ru-baikal',
    'changed_figure',
    'В 1998 году Байкал был включён в список объектов Всемирного наследия ЮНЕСКО.',
  ),
];
