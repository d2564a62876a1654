/**
 * CPU seconds spent by each part of the stack while a target runs, read from /proc (Linux only): which process a path
 * saturates, and how much CPU one request costs in each. Processes are grouped by role (a service's `apps/<name>`,
 * postgres, nats-server, the load generator); elsewhere the figures are simply absent. Only this checkout's
 * processes count (their working directory is in it; PostgreSQL's is its data directory under `.data/`): a test
 * stack of another checkout on the same machine runs the same programs. The machine's nats-server is shared.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { REPO_ROOT } from '@social/testing';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on.

export type CpuByRole = Record<string, number>;

function roleOf(commandLine: string): string | undefined {
  const service = /apps\/([a-z-]+)\/dist\/main\.js/.exec(commandLine);
  if (service) return service[1];
  const program = commandLine.split('\0')[0];
  if (/(^|\/)postgres:?$/.test(program) || program.startsWith('postgres:')) return 'postgres';
  if (program.endsWith('nats-server')) return 'nats-server';
  if (commandLine.includes('tools/dist/bench/run.js')) return 'bench (load)';
  if (commandLine.includes('tools/dist/bench/baseline.js')) return 'baseline';
  return undefined;
}

/** CPU seconds so far of every process of a known role, summed per role. */
export function cpuByRole(): CpuByRole | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  const totals: CpuByRole = {};
  for (const pid of pids) {
    try {
      const role = roleOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      if (!role || (role !== 'nats-server' && !`${readlinkSync(`/proc/${pid}/cwd`)}/`.startsWith(REPO_ROOT))) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, then cutime and cstime
      // (children reaped). PostgreSQL's backends come and go with the pools: the postmaster's reaped share keeps theirs.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const own = Number(fields[11]) + Number(fields[12]);
      const reaped = role === 'postgres' ? Number(fields[13]) + Number(fields[14]) : 0;
      totals[role] = (totals[role] ?? 0) + (own + reaped) / TICKS_PER_SECOND;
    } catch {
      // The process ended meanwhile.
    }
  }
  return totals;
}

/** Milliseconds of CPU per request in each role between two readings (roles under 0.01 ms left out). */
export function cpuPerRequest(before: CpuByRole | undefined, after: CpuByRole | undefined, requests: number): CpuByRole | undefined {
  if (!before || !after || requests <= 0) return undefined;
  const perRequest: CpuByRole = {};
  for (const [role, seconds] of Object.entries(after)) {
    const ms = ((seconds - (before[role] ?? 0)) * 1000) / requests;
    if (ms >= 0.01) perRequest[role] = Math.round(ms * 100) / 100;
  }
  return perRequest;
}
