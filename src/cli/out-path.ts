import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Why the report could not be written to `path`, checked before research
 * starts (minutes and money later, a typo would lose it); undefined when it
 * can be: an existing writable file, or a new one in a writable folder.
 */
export async function outPathProblem(path: string): Promise<string | undefined> {
  const full = resolve(path);
  const found = await stat(full).catch(() => undefined);
  if (found?.isDirectory())
    return `--out ${path} is a folder: give a file path, e.g. ${join(path, 'report.md')}`;
  if (found) {
    return (await writable(full)) ? undefined : `--out ${path} cannot be written: check its permissions`;
  }
  const folder = dirname(full);
  const parent = await stat(folder).catch(() => undefined);
  if (!parent?.isDirectory())
    return `--out ${path}: the folder ${folder} does not exist; create it first or choose another path`;
  return (await writable(folder))
    ? undefined
    : `--out ${path}: files cannot be created in ${folder}; check its permissions`;
}

function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK).then(
    () => true,
    () => false,
  );
}

function join(folder: string, file: string): string {
  return `${folder.replace(/\/+$/, '')}/${file}`;
}
