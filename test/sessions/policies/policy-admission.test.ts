import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/ports/logger.js';
import type { AdmissionRules } from '../../../src/sessions/admission.js';
import { ChannelPolicies } from '../../../src/sessions/policies/channel-policies.js';
import { ChannelPolicy } from '../../../src/sessions/policies/channel-policy.js';
import { PolicyGate, type Standing } from '../../../src/sessions/policies/policy-gate.js';
import { AuditStore, auditTrail } from '../../../src/sessions/records/audit-store.js';
import { PolicyStore } from '../../../src/sessions/records/policy-store.js';
import { SessionStore } from '../../../src/sessions/records/session-store.js';
import type { Start } from '../../../src/sessions/session-service.js';
import type { Database } from '../../../src/store/database.js';
import { realPostgres } from '../../helpers/postgres.js';
import { testService } from '../../helpers/session-room.js';

const ADMIN = 'UADMIN';
const standing: Standing = async (who, groups) => ({
  admin: who.userId === ADMIN,
  groups: who.userId === 'UGROUPIE' ? groups.filter((g) => g === 'SDESIGN') : [],
});

describe('channel policies at admission (real Postgres)', () => {
  let db: Database;
  let store: PolicyStore;
  let channel = 0;
  let place: { teamId: string; channelId: string };

  beforeAll(async () => {
    db = await realPostgres();
    store = new PolicyStore(db.pool);
  });
  afterAll(() => db.close());
  beforeEach(() => {
    channel += 1;
    place = { teamId: 'T1', channelId: `CPOL${channel}` };
  });

  const gate = (backend = { name: 'agents', searchesWebItself: false }) =>
    new PolicyGate({ policies: store, standing, backend });
  const service = (
    rules?: () => Promise<AdmissionRules>,
    backend?: { name: string; searchesWebItself: boolean },
  ) => testService(db, { policies: gate(backend), rules, ...{} });
  const start = (requester: string, extra: Partial<Start['session']> = {}): Start => ({
    session: {
      origin: 'slack',
      ...place,
      threadTs: `${Math.random()}`,
      requester,
      question: 'What changed in EU battery rules?',
      ...extra,
    },
    request: { planReview: { seconds: 60 }, files: { given: [], skipped: [] } },
  });
  const setPolicy = (policy: unknown, by = ADMIN) => store.set(place, ChannelPolicy.parse(policy), by);

  it('without a policy, research starts as before and records no policy', async () => {
    const started = await service().queue(start('UANY'));
    expect(started.started).toBe(true);
    const row = await new SessionStore(db.pool).get(started.started ? started.id : '');
    expect(row?.policy).toBeNull();
  });

  it('a policy naming two people refuses a third in one sentence naming the policy and who can change it', async () => {
    await setPolicy({ starters: { kind: 'named', users: ['UANN', 'UBOB'] }, managers: ['UMAN'] });
    const s = service();
    expect((await s.queue(start('UANN'))).started).toBe(true);
    const refused = await s.queue(start('UCAROL'));
    expect(refused).toEqual({
      started: false,
      refusal: {
        kind: 'policy',
        sentence:
          "This channel's research policy lets only the people and groups it names start research here; ask a workspace admin or the person managing this channel's policy (`/research settings` names them) to change it.",
      },
    });
    // The early check (before anything is posted) says the same; a workspace admin is always let in.
    expect((await s.refusal({ requester: 'UCAROL', ...place }))?.kind).toBe('policy');
    expect((await s.queue(start(ADMIN))).started).toBe(true);
  });

  it("lets a named user group's members start, and only admins when the policy says so", async () => {
    await setPolicy({ starters: { kind: 'named', groups: ['SDESIGN'] } });
    const s = service();
    expect((await s.queue(start('UGROUPIE'))).started).toBe(true);
    expect((await s.queue(start('UOUT'))).started).toBe(false);
    await setPolicy({ starters: { kind: 'admins' } });
    expect((await s.queue(start('UGROUPIE'))).started).toBe(false);
    expect((await s.queue(start(ADMIN))).started).toBe(true);
  });

  it('says so in one sentence when Slack cannot tell who is in a group, rather than guessing', async () => {
    await setPolicy({ starters: { kind: 'named', groups: ['SDESIGN'] } });
    const down = new PolicyGate({
      policies: store,
      standing: async () => {
        throw new Error('slack is down');
      },
      backend: { name: 'agents', searchesWebItself: false },
    });
    const refused = await testService(db, { policies: down }).queue(start('UGROUPIE'));
    expect(
      refused.started === false && refused.refusal.kind === 'policy' && refused.refusal.sentence,
    ).toMatch(/^Slack did not say whether you may start research/);
  });

  it('refuses schedules where they are not allowed, and a backend or web search the policy does not allow', async () => {
    await setPolicy({ schedules: false });
    const refused = await service().queue(start('UANY', { scheduleId: undefined }));
    expect(refused.started).toBe(true);
    const scheduled = await gate().decide({ ...place, requester: 'UANY', scheduled: true });
    expect(scheduled.refusal).toMatch(/does not allow scheduled research here/);
    await setPolicy({ backends: ['gemini-deep-research'] });
    expect((await gate().decide({ ...place, requester: 'UANY' })).refusal).toMatch(
      /allows research only with gemini-deep-research, and this app researches with agents/,
    );
    await setPolicy({ sources: { web: false } });
    const hosted = gate({ name: 'deep-research-api', searchesWebItself: true });
    expect((await hosted.decide({ ...place, requester: 'UANY' })).refusal).toMatch(
      /does not allow web search, and this app's deep-research-api backend always searches the web/,
    );
    expect((await gate().decide({ ...place, requester: 'UANY' })).refusal).toBeUndefined();
  });

  it('keeps the policy with the session: its sources, plan review off, files left out, and a per-run budget', async () => {
    await setPolicy({
      sources: { web: false, threadFiles: false },
      planReview: 'off',
      runBudgetUsd: 0.5,
    });
    const rules = async () => ({ perUser: 5, caps: {}, costUsd: [0.2, 1.4] as [number, number] });
    const started = await service(rules).queue(start('UANY'));
    if (!started.started) throw new Error('refused');
    const row = await new SessionStore(db.pool).get(started.id);
    expect(row?.policy).toMatchObject({
      sources: { web: false, knowledgeBase: true, threadFiles: false, mcpServers: 'all' },
      runBudgetUsd: 0.5,
      summary: 'sources: knowledge base, MCP servers · $0.50 a run · plan review off',
    });
    // The run may spend what the policy allows, not the estimate's high end.
    expect(row?.reservedUsd).toBe(0.5);
    const request = (started.checkpoint as unknown as { request: Record<string, unknown> }).request;
    expect(request.planReview).toBeUndefined();
    expect(request.files).toBeUndefined();
    // A per-run budget below the estimate's low end refuses, naming both.
    await setPolicy({ runBudgetUsd: 0.1 });
    const low = await service(rules).queue(start('UANY'));
    expect(low.started === false && low.refusal.kind === 'policy' && low.refusal.sentence).toBe(
      "A research costs at least about $0.20, and this channel's research policy allows $0.10 a run; ask a workspace admin to raise it.",
    );
  });

  it("holds a channel's daily budget under 20 requests at once", async () => {
    await setPolicy({ dailyBudgetUsd: 3 });
    const rules = async () => ({ perUser: 5, caps: {}, costUsd: [0.4, 1] as [number, number] });
    const s = service(rules);
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => s.queue(start(`UP${i}`))));
    const admitted = all.filter((a) => a.started);
    // $1 reserved each: three fit in $3; the rest hear the channel's budget.
    expect(admitted).toHaveLength(3);
    const refusal = all.find((a) => !a.started);
    expect(
      refusal?.started === false && refusal.refusal.kind === 'spend_cap' && refusal.refusal.sentence,
    ).toMatch(
      /^Research in this channel has used \$0\.00 \(and research still running holds \$3\.00\) of the \$3\.00 a day this channel's research policy allows/,
    );
    // Another channel is not held by this one's budget.
    const elsewhere = await s.queue({
      ...start('UP1'),
      session: { ...start('UP1').session, channelId: 'COTHER' },
    });
    expect(elsewhere.started).toBe(true);
  });

  it('prepares a request again when the policy changes between its reading and the decision', async () => {
    await setPolicy({ planReview: 'off' });
    let reads = 0;
    const racing = new PolicyGate({
      policies: store,
      standing,
      backend: { name: 'agents', searchesWebItself: false },
    });
    const decide = racing.decide.bind(racing);
    racing.decide = async (request) => {
      const decision = await decide(request);
      // The first reading is overtaken by a change before admission's lock.
      if (++reads === 1) await setPolicy({ planReview: 'on' });
      return decision;
    };
    const started = await testService(db, { policies: racing }).queue(start('URACE'));
    if (!started.started) throw new Error('refused');
    expect(reads).toBe(2);
    const row = await new SessionStore(db.pool).get(started.id);
    expect(row?.policy?.summary).toBe('plan review on');
  });
});

describe('changing a channel policy', () => {
  let db: Database;
  let policies: ChannelPolicies;
  let audit: AuditStore;
  const place = { teamId: 'T1', channelId: 'CCHANGE' };
  const admin = { id: ADMIN, isAdmin: async () => true };
  const person = (id: string) => ({ id, isAdmin: async () => false });

  beforeAll(async () => {
    db = await realPostgres();
    audit = new AuditStore(db.pool);
    policies = new ChannelPolicies({
      store: new PolicyStore(db.pool),
      choices: { backends: ['agents', 'gemini-deep-research'], mcpServers: ['wiki'] },
      audit: auditTrail(audit, silentLogger),
    });
  });
  afterAll(() => db.close());

  it('is for admins and the managers they name; managers cannot change who manages; every change is audited', async () => {
    const policy = ChannelPolicy.parse({ dailyBudgetUsd: 5, managers: ['UMAN'] });
    expect(await policies.change(person('UMAN'), place, policy)).toEqual({
      done: false,
      sentence:
        "Only a workspace admin, or someone an admin named to manage this channel's research policy, can change it.",
    });
    expect((await policies.change(admin, place, policy)).done).toBe(true);
    const tighter = ChannelPolicy.parse({ dailyBudgetUsd: 2, managers: ['UMAN'] });
    expect((await policies.change(person('UMAN'), place, tighter)).done).toBe(true);
    const grab = ChannelPolicy.parse({ managers: ['UMAN', 'UFRIEND'] });
    expect(await policies.change(person('UMAN'), place, grab)).toEqual({
      done: false,
      sentence: "Only a workspace admin can change who manages this channel's research policy.",
    });
    expect((await policies.change(person('USTRANGER'), place, null)).done).toBe(false);
    expect((await policies.change(admin, place, null)).done).toBe(true);
    const rows = (await audit.list({ channelId: 'CCHANGE' })).filter((r) => r.action === 'policy.changed');
    expect(rows.map((r) => [r.actor, r.detail.policy])).toEqual([
      [ADMIN, '$5.00 a day'],
      ['UMAN', '$2.00 a day'],
      [ADMIN, 'cleared'],
    ]);
  });

  it('refuses a policy that names what this app does not run, or leaves research nothing to read', async () => {
    const bad = async (p: unknown) => {
      const changed = await policies.change(admin, place, ChannelPolicy.parse(p));
      return changed.done ? 'saved' : changed.sentence;
    };
    expect(await bad({ backends: ['openai-magic'] })).toBe(
      'There is no research backend named openai-magic here; this app runs agents, gemini-deep-research.',
    );
    expect(await bad({ sources: { mcpServers: ['jira'] } })).toBe(
      'There is no MCP server named jira here (MCP_SERVERS names wiki).',
    );
    expect(
      await bad({ sources: { web: false, knowledgeBase: false, threadFiles: false, mcpServers: [] } }),
    ).toMatch(/^This policy leaves research no source to read/);
    expect(await bad({ starters: { kind: 'named' } })).toMatch(/^This policy names nobody/);
  });
});
