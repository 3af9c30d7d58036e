import nock from 'nock';

// Nothing in the tests reaches the internet; local servers (Postgres, fake Slack) are allowed.
nock.disableNetConnect();
nock.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/);
