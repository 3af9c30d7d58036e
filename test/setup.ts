import nock from 'nock';
import { ALLOWED_LOCAL } from './helpers/local-hosts.js';

// Nothing in the tests reaches the internet; local servers (Postgres, fake Slack) are allowed.
nock.disableNetConnect();
nock.enableNetConnect(ALLOWED_LOCAL);
