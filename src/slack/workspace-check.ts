/**
 * The workspace a Slack request says it comes from, in any of its shapes
 * (a command's `team_id`, an event's `team_id`, an interaction's `team.id`),
 * or undefined when it names none or comes from an org-wide (Enterprise
 * Grid) install, whose requests span several workspaces.
 */
export function requestTeam(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { team_id?: unknown; team?: { id?: unknown }; is_enterprise_install?: unknown };
  if (b.is_enterprise_install === true || b.is_enterprise_install === 'true') return undefined;
  const team = b.team_id ?? b.team?.id;
  return typeof team === 'string' && team ? team : undefined;
}

/**
 * Why a request from another workspace than the one the bot token belongs
 * to is refused, or undefined: a signed request for team T2 would otherwise
 * run with T1's token, be capped under T2 and have its admins checked in T1.
 */
export function foreignWorkspace(body: unknown, installedTeam: string | undefined): string | undefined {
  const team = requestTeam(body);
  if (!installedTeam || !team || team === installedTeam) return undefined;
  return `refused a request from workspace ${team}: this app is installed in ${installedTeam}`;
}
