import type { App } from '@slack/bolt';
import type { Logger } from '../ports/logger.js';

/** Where a `/research` command was given, and what followed its phrase. */
export interface FeatureCommand {
  teamId: string;
  teamDomain: string;
  channelId: string;
  userId: string;
  /** The text after the phrase (for a phrase that takes text: `find <words>`). */
  rest: string;
  /** The command's trigger, to open a form (it lives 3 s). */
  triggerId?: string;
}

/** A `/research` sub-command a feature answers privately: an exact phrase, or one followed by text. */
export interface FeatureSubcommand {
  phrase: string;
  takesText?: boolean;
  run(command: FeatureCommand): Promise<string | undefined>;
}

/** What the app gives every feature's listeners. */
export interface FeatureContext {
  log: Logger;
  /** True the first time `key` is seen (Slack retries events): what runs once runs here. */
  once(key: string): Promise<boolean>;
  /** The one sentence for a failure on our side. */
  sorry: string;
}

/**
 * A Slack feature as a plug-in: the `/research` sub-commands it answers and
 * the listeners (buttons, views, events) it registers itself. The app lists
 * features; it does not wire their insides.
 */
export interface SlackFeature {
  readonly name: string;
  subcommands?: FeatureSubcommand[];
  register?(app: App, context: FeatureContext): void;
}
