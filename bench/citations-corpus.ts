/**
 * The claim-check corpus: real pages from test/fixtures/pages/corpus (as our
 * extractor reads them) and, for each, claims a report writer might make from
 * it, in the writer's own words. `wrong` is the claim with one figure changed
 * (the page says another number). `invented` are claims in the page's topic
 * that no page of the corpus makes. Every claim was checked by hand against
 * the page text.
 */
export interface CorpusClaim {
  text: string;
  wrong?: string;
}

export interface CorpusPage {
  file: string;
  claims: CorpusClaim[];
  invented: string[];
}

export const CORPUS: CorpusPage[] = [
  {
    file: 'docs-python-json',
    claims: [
      {
        text: 'JSON is a lightweight data interchange format whose syntax was inspired by JavaScript object literals.',
      },
      {
        text: "Python's documentation warns that a malicious JSON string from an untrusted source can make the decoder consume considerable CPU and memory.",
      },
      {
        text: 'The json module exposes an API that users of the marshal and pickle modules will find familiar.',
      },
      {
        text: 'JSON is specified by RFC 7159, which obsoletes RFC 4627, and by ECMA-404.',
        wrong: 'JSON is specified by RFC 7195, which obsoletes RFC 4627, and by ECMA-404.',
      },
    ],
    invented: ['The json module serialises Python sets natively, without a custom encoder.'],
  },
  {
    file: 'news-usatoday1',
    claims: [
      {
        text: 'Liberian authorities said they would prosecute Thomas Eric Duncan for allegedly lying on his airport departure screening questionnaire.',
      },
      {
        text: 'According to the World Health Organization, the outbreak had killed 3,338 people in Guinea, Sierra Leone, Liberia, Senegal and Nigeria.',
        wrong:
          'According to the World Health Organization, the outbreak had killed 3,883 people in Guinea, Sierra Leone, Liberia, Senegal and Nigeria.',
      },
      { text: 'Duncan was in serious condition in a Dallas hospital.' },
      {
        text: 'Marthalene Williams, 19 and seven months pregnant, was turned away at the hospital for lack of space in the Ebola ward.',
        wrong:
          'Marthalene Williams, 29 and seven months pregnant, was turned away at the hospital for lack of space in the Ebola ward.',
      },
      {
        text: 'On Sept. 15, Duncan helped carry Williams into a taxi after her family was unable to get an ambulance.',
        wrong:
          'On Sept. 25, Duncan helped carry Williams into a taxi after her family was unable to get an ambulance.',
      },
    ],
    invented: [
      'The WHO expected the number of Ebola cases to double every three weeks until the end of the year.',
    ],
  },
  {
    file: 'news-theverge1',
    claims: [
      {
        text: "Facebook altered the content of some users' News Feeds to study what causes people to post emotional material.",
      },
      {
        text: 'The experiment affected 0.04 percent of users over one week in 2012.',
        wrong: 'The experiment affected 0.4 percent of users over one week in 2012.',
      },
      {
        text: 'Adam Kramer, a Facebook data scientist who co-wrote the study, said he was very sorry for the way the paper described the research.',
      },
      {
        text: 'Contrary to conventional wisdom, seeing positive emotions on Facebook was found to encourage similarly positive content.',
      },
      {
        text: 'Kramer said Facebook has improved its internal review practices since 2012.',
        wrong: 'Kramer said Facebook has improved its internal review practices since 2010.',
      },
    ],
    invented: ['Facebook paid each participant of the News Feed experiment a small fee for taking part.'],
  },
  {
    file: 'docs-postgres-datatype-numeric',
    claims: [
      {
        text: 'In PostgreSQL a smallint takes 2 bytes and holds values from -32768 to +32767.',
        wrong: 'In PostgreSQL a smallint takes 2 bytes and holds values from -32768 to +65535.',
      },
      {
        text: 'The integer type is the common choice because it offers the best balance between range, storage size and performance.',
      },
      { text: 'The smallint type is generally only used when disk space is at a premium.' },
      {
        text: 'The numeric and decimal types allow up to 131072 digits before the decimal point and up to 16383 after it.',
        wrong:
          'The numeric and decimal types allow up to 131072 digits before the decimal point and up to 32767 after it.',
      },
      {
        text: 'The real type has 6 decimal digits of precision, while double precision has 15.',
        wrong: 'The real type has 6 decimal digits of precision, while double precision has 17.',
      },
    ],
    invented: ['PostgreSQL stores bigint values in 16 bytes on 64-bit platforms.'],
  },
  {
    file: 'docs-python-gc',
    claims: [
      {
        text: "Python's gc module can disable the collector, tune the collection frequency and set debugging options.",
      },
      {
        text: 'Called with no arguments, gc.collect() runs a full collection and returns the number of unreachable objects found.',
      },
      {
        text: 'The generation passed to gc.collect() may be from 0 to 2, and an invalid generation number raises a ValueError.',
        wrong:
          'The generation passed to gc.collect() may be from 0 to 3, and an invalid generation number raises a ValueError.',
      },
      {
        text: 'gc.get_stats() returns a list of three per-generation dictionaries of collection statistics.',
      },
      {
        text: 'The generation parameter of gc.get_objects() was added in version 3.8.',
        wrong: 'The generation parameter of gc.get_objects() was added in version 3.9.',
      },
    ],
    invented: ["Python's garbage collector runs in a background thread every 100 milliseconds."],
  },
  {
    file: 'docs-python-csv',
    claims: [
      { text: 'CSV is the most common import and export format for spreadsheets and databases.' },
      {
        text: 'The CSV format was used for many years before RFC 4180 attempted to describe it in a standardized way.',
        wrong:
          'The CSV format was used for many years before RFC 4810 attempted to describe it in a standardized way.',
      },
      {
        text: 'Because there is no well-defined standard, the data different applications produce and consume often differ in subtle ways.',
      },
      { text: "The csv module's DictReader and DictWriter classes read and write data in dictionary form." },
      {
        text: 'The csv module was proposed in PEP 305.',
        wrong: 'The csv module was proposed in PEP 350.',
      },
    ],
    invented: ['The csv module reads Excel .xlsx workbooks directly.'],
  },
  {
    file: 'news-msn1',
    claims: [
      {
        text: 'Some supermarkets mark down prepared foods and bakery items an hour before closing, because they cannot sell them the following day.',
      },
      {
        text: 'Near closing time shoppers can get a rotisserie chicken or freshly baked cookies for 50 percent off.',
        wrong:
          'Near closing time shoppers can get a rotisserie chicken or freshly baked cookies for 30 percent off.',
      },
      {
        text: 'It is worth asking the deli or bakery manager for a 5 to 10 percent discount on a catering order.',
        wrong:
          'It is worth asking the deli or bakery manager for a 5 to 20 percent discount on a catering order.',
      },
      {
        text: 'Kitchen supplies and seasonal items have inflated prices at grocery stores and are better bought at big-box chains like Target or Walmart.',
      },
    ],
    invented: ['Grocery stores restock discounted produce every Tuesday morning.'],
  },
  {
    file: 'blog-dcurtis',
    claims: [
      {
        text: 'Dustin Curtis argues that current voice interfaces are horrible because they try to imitate intelligence and fail.',
      },
      {
        text: 'Curtis writes that at least three people independently invented different types of light bulbs.',
        wrong:
          'Curtis writes that at least five people independently invented different types of light bulbs.',
      },
      {
        text: 'According to Curtis, voice recognition is great at transcribing words, listening for specific commands and matching expected inputs.',
      },
      {
        text: 'Most people have no idea how to use things like Siri, which answers reasonable questions with junk from Google.',
      },
    ],
    invented: ['Curtis predicts that voice interfaces will replace keyboards within five years.'],
  },
];
