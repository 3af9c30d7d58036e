// One worker process for the benchmarks (durability, cancel):
//   node --import tsx bench/lib/worker-process.ts DATABASE_URL OWNER LEASE_MS [listen]
import { openDatabase } from '../../src/store/database.js';
import { startBenchWorker } from './bench-worker.js';

const [url, owner, leaseMs, listen] = process.argv.slice(2);
const db = await openDatabase({ url, dataDir: '' });
startBenchWorker(db, { owner: owner!, leaseMs: Number(leaseMs), listen: listen === 'listen' });
process.stdout.write('ready\n');
