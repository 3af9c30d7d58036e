import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '..');
const manifest = parse(readFileSync(join(root, 'manifest.yml'), 'utf8'));
const schema = JSON.parse(
  readFileSync(join(root, 'test/fixtures/slack-manifest-schema/manifest.schema.1.0.0.json'), 'utf8'),
);

function validate(candidate: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const check = ajv.compile(schema);
  return check(candidate) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** Every Slack source file's text, to see which API methods and events the code really uses. */
const code = readdirSync(join(root, 'src/slack'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(join(root, 'src/slack', f), 'utf8'))
  .join('\n');

/** Scope each Web API method needs (docs.slack.dev); chat.getPermalink needs none. */
const METHOD_SCOPES: Record<string, string[]> = {
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.delete': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.getPermalink': [],
  'reactions.add': ['reactions:write'],
  'reactions.remove': ['reactions:write'],
  'files.getUploadURLExternal': ['files:write'],
  'files.completeUploadExternal': ['files:write'],
  'users.info': ['users:read'],
  // A channel policy that lets a user group start research.
  'usergroups.users.list': ['usergroups:read'],
  // A deleted report's file (files:write covers the app's own files).
  'files.delete': ['files:write'],
  // Who may see a channel's reports (/research find).
  'conversations.members': ['channels:read', 'groups:read', 'mpim:read'],
  // Whether the bot is still in a schedule's channel (a DM is never looked up).
  'conversations.info': ['channels:read', 'groups:read', 'mpim:read'],
  // The plan editor (a modal needs no scope of its own), and the Home tab.
  'views.open': [],
  'views.publish': [],
  // Opening the requester's DM when a thread cannot be used.
  'conversations.open': ['im:write'],
  // Finding a message whose post was answered after a crash, by its metadata.
  'conversations.replies': ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  'conversations.history': ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  'assistant.threads.setSuggestedPrompts': ['assistant:write'],
  'assistant.threads.setStatus': ['assistant:write'],
  // Agent sessions: thread-based ones need chat:write (docs.slack.dev/ai/agent-sessions).
  'agents.sessions.setStatus': ['chat:write'],
  'agents.sessions.rename': ['chat:write'],
  // The report as a canvas, readable by the channel (or the requester in a DM).
  'canvases.create': ['canvases:write'],
  'canvases.access.set': ['canvases:write'],
  'canvases.delete': ['canvases:write'],
};

describe('manifest.yml', () => {
  it("is valid against Slack's manifest schema, in HTTP mode and as the Socket Mode variant the README describes", () => {
    expect(validate(manifest)).toEqual([]);
    const socket = structuredClone(manifest);
    socket.settings.socket_mode_enabled = true;
    delete socket.settings.event_subscriptions.request_url;
    delete socket.settings.interactivity.request_url;
    delete socket.features.slash_commands[0].url;
    expect(validate(socket)).toEqual([]);
    expect(validate({ ...manifest, settings: { ...manifest.settings, bogus: true } })).not.toEqual([]);
  });

  it('asks for exactly the scopes, events and command the code uses', () => {
    const used = Object.keys(METHOD_SCOPES).filter((m) => code.includes(`client.${m}(`));
    const scopes = new Set(used.flatMap((m) => METHOD_SCOPES[m]!));
    if (code.includes("app.command('/research'")) scopes.add('commands');
    // Shared files are read from their private address with the bot token.
    if (code.includes('url_private_download')) scopes.add('files:read');
    const events: string[] = [];
    if (code.includes("app.event('app_mention'")) {
      scopes.add('app_mentions:read');
      events.push('app_mention');
    }
    if (code.includes("app.event('agent_session_stopped'")) {
      // Declaring the app an agent adds assistant:write; assistant_view is the legacy experience it replaces.
      scopes.add('assistant:write');
      events.push('agent_session_stopped');
      expect(manifest.features.agent_view?.agent_description).toBeTruthy();
      expect(manifest.features.assistant_view).toBeUndefined();
    }
    if (code.includes("app.event('app_home_opened'")) {
      events.push('app_home_opened');
      expect(manifest.features.app_home.home_tab_enabled).toBe(true);
    }
    if (code.includes('app.message(')) {
      for (const [event, scope] of [
        ['message.channels', 'channels:history'],
        ['message.groups', 'groups:history'],
        ['message.im', 'im:history'],
        ['message.mpim', 'mpim:history'],
      ]) {
        events.push(event!);
        scopes.add(scope!);
      }
    }
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...scopes].sort());
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual(events.sort());
    expect(manifest.features.slash_commands.map((c: { command: string }) => c.command)).toEqual([
      '/research',
    ]);
    expect(manifest.settings.interactivity.is_enabled).toBe(code.includes('app.action'));
  });
});
