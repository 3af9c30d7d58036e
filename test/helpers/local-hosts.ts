/** Hosts tests may really connect to (Postgres, local fake servers); everything else is nock's or refused. */
export const ALLOWED_LOCAL = /^(127\.0\.0\.\d{1,3}|localhost|\[::1\])(:\d+)?$/;
