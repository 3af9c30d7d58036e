import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the embedded database lives without DATA_DIR: $XDG_DATA_HOME/deep-research,
 * else ~/Library/Application Support/deep-research on macOS and ~/.local/share/deep-research elsewhere.
 */
export function defaultDataDir(env: Record<string, string | undefined>, platform = process.platform): string {
  if (env.XDG_DATA_HOME?.trim()) return join(env.XDG_DATA_HOME.trim(), 'deep-research');
  const home = env.HOME?.trim() || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'deep-research');
  return join(home, '.local', 'share', 'deep-research');
}
