import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIPv6 } from 'node:net';
import { blockedAddress } from './address-policy.js';

/** Name → addresses; injectable so tests can make a name resolve anywhere. */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Raised when every address of a name is off-limits; its message is the reason shown to the model. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_BLOCKED_ADDRESS';
}

/**
 * A `lookup` for sockets: the address checked is the address connected to, so
 * a name that resolves publicly when checked and privately when connecting
 * (DNS rebinding) cannot slip through.
 */
export function guardedLookup(resolve: Resolve, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const family = typeof options.family === 'number' ? options.family : 0;
        const usable = addresses.filter(
          (a) => (family === 0 || (isIPv6(a) ? 6 : 4) === family) && (allowPrivate || !blockedAddress(a)),
        );
        if (usable.length === 0) {
          const why = addresses.length ? blockedAddress(addresses[0]!) : undefined;
          const error = new BlockedAddressError(
            why
              ? `refused: ${hostname} resolves to a non-public address (${why})`
              : `${hostname} has no address`,
          );
          callback(error as NodeJS.ErrnoException, '', 0);
          return;
        }
        const entries = usable.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
        if (options.all) (callback as (e: null, a: typeof entries) => void)(null, entries);
        else callback(null, entries[0]!.address, entries[0]!.family);
      },
      (error: NodeJS.ErrnoException) => {
        const notFound = error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN';
        callback(
          notFound
            ? Object.assign(new Error(`${hostname} could not be resolved`), { code: error.code })
            : error,
          '',
          0,
        );
      },
    );
  };
}
