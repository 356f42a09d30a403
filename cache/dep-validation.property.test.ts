// Model-based check of the never-stale rule on a simulated file system whose timestamps have a
// one-second granularity (coarser than ctime on Linux, like FAT/NFS/HFS+), so edits inside one
// tick leave size, mtime, ctime and inode all unchanged. Random sequences of same-size edits,
// touches, mtime restores (`touch -r`), tar-style renames over, deletes and re-creations are
// run against recorded dependency sets; after every step, validation must say "valid" exactly
// when every recorded fact still holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkDeps, checkDepsSync, type AsyncDepIo, type PathProbe, type SyncDepIo } from './dep-validation.js';
import { digestOf } from './digest.js';
import type { FileDep } from './file-dep.js';
import type { HashOutcome } from './regular-file-reader.js';

const SECOND = 1_000_000_000n;
const PATHS = ['/r/main.jsonnet', '/r/lib.libsonnet', '/r/vendor/k.libsonnet'] as const;
const CONTENTS = ['aaaa', 'bbbb', 'cccc', 'dd'] as const; // mostly the same size on purpose

interface FakeFile {
  content: string;
  ino: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

class FakeFs {
  files = new Map<string, FakeFile>();
  nowNs = 1_000n * SECOND;
  hashes = 0;
  private nextIno = 1n;
  /** The file system stamps times at whole seconds. */
  private stamp(): bigint {
    return (this.nowNs / SECOND) * SECOND;
  }
  write(path: string, content: string): void {
    const old = this.files.get(path);
    const t = this.stamp();
    this.files.set(path, { content, ino: old?.ino ?? this.nextIno++, mtimeNs: t, ctimeNs: t });
  }
  setMtime(path: string, mtimeNs: bigint): void {
    const file = this.files.get(path);
    if (file) this.files.set(path, { ...file, mtimeNs, ctimeNs: this.stamp() });
  }
  /** `tar x` into a temp name with a fixed mtime, then `mv` over: new inode, same size. */
  renameOver(path: string, content: string, mtimeNs: bigint): void {
    this.files.set(path, { content, ino: this.nextIno++, mtimeNs, ctimeNs: this.stamp() });
  }
  remove(path: string): void {
    this.files.delete(path);
  }
  stat(path: string): PathProbe {
    const f = this.files.get(path);
    if (!f) return { kind: 'missing' };
    const stat = {
      size: f.content.length,
      mtimeNs: f.mtimeNs,
      ctimeNs: f.ctimeNs,
      ino: f.ino,
      dev: 1n,
      isFile: true,
      isDirectory: false,
    };
    return { kind: 'present', stat };
  }
  hash(path: string): HashOutcome {
    this.hashes++;
    const probe = this.stat(path);
    const f = this.files.get(path);
    if (probe.kind !== 'present' || !f) return { kind: 'missing' };
    return { kind: 'hashed', digest: digestOf(f.content), stat: probe.stat };
  }
  /** What DependencyRecorder would record for every path right now. */
  record(): FileDep[] {
    return PATHS.map((path) => {
      const probe = this.stat(path);
      const f = this.files.get(path);
      if (probe.kind !== 'present' || !f) return { path, exists: false };
      const { stat } = probe;
      return {
        path,
        exists: true,
        digest: digestOf(f.content),
        size: stat.size,
        mtimeNs: stat.mtimeNs,
        ctimeNs: stat.ctimeNs,
        ino: stat.ino,
        dev: stat.dev,
        readAtNs: this.nowNs,
      };
    });
  }
  /** The truth: do all recorded facts still hold? */
  stillTrue(deps: FileDep[]): boolean {
    return deps.every((dep) => {
      const f = this.files.get(dep.path);
      return dep.exists ? f !== undefined && digestOf(f.content) === dep.digest : f === undefined;
    });
  }
}

type Op =
  | { op: 'advance'; ms: number }
  | { op: 'write'; path: number; content: number }
  | { op: 'touch'; path: number }
  | { op: 'restoreMtime'; path: number; toRecorded: number }
  | { op: 'renameOver'; path: number; content: number; mtimeSeconds: number }
  | { op: 'remove'; path: number }
  | { op: 'record' }
  | { op: 'validate' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('advance' as const),
      ms: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1000, max: 5000 })),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('write' as const), path: fc.nat(2), content: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('touch' as const), path: fc.nat(2) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('restoreMtime' as const), path: fc.nat(2), toRecorded: fc.nat(20) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('renameOver' as const),
      path: fc.nat(2),
      content: fc.nat(3),
      mtimeSeconds: fc.integer({ min: 990, max: 1010 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('remove' as const), path: fc.nat(2) }) },
  { weight: 2, arbitrary: fc.constant({ op: 'record' as const }) },
  { weight: 3, arbitrary: fc.constant({ op: 'validate' as const }) },
);

function run(
  ops: Op[],
  validate: (fakeFs: FakeFs, deps: FileDep[]) => { valid: boolean; refreshed?: FileDep[] },
): void {
  const fakeFs = new FakeFs();
  fakeFs.write(PATHS[0], 'aaaa');
  fakeFs.write(PATHS[1], 'bbbb');
  let recorded: FileDep[][] = [fakeFs.record()];
  const seenMtimes: bigint[] = [];
  for (const step of ops) {
    switch (step.op) {
      case 'advance':
        fakeFs.nowNs += BigInt(step.ms) * 1_000_000n;
        break;
      case 'write':
        fakeFs.write(PATHS[step.path]!, CONTENTS[step.content]!);
        break;
      case 'touch':
        fakeFs.setMtime(PATHS[step.path]!, (fakeFs.nowNs / SECOND) * SECOND);
        break;
      case 'restoreMtime':
        if (seenMtimes.length > 0) fakeFs.setMtime(PATHS[step.path]!, seenMtimes[step.toRecorded % seenMtimes.length]!);
        break;
      case 'renameOver':
        fakeFs.renameOver(PATHS[step.path]!, CONTENTS[step.content]!, BigInt(step.mtimeSeconds) * SECOND);
        break;
      case 'remove':
        fakeFs.remove(PATHS[step.path]!);
        break;
      case 'record': {
        const deps = fakeFs.record();
        for (const d of deps) if (d.mtimeNs !== undefined) seenMtimes.push(d.mtimeNs);
        recorded.push(deps);
        break;
      }
      case 'validate':
        recorded = recorded.map((deps) => {
          const truth = fakeFs.stillTrue(deps);
          const check = validate(fakeFs, deps);
          assert.equal(check.valid, truth, `validation said ${check.valid}, truth is ${truth}`);
          return check.refreshed ?? deps; // what ResultCache keeps after a confirming re-hash
        });
        break;
    }
  }
}

function syncIo(fakeFs: FakeFs): SyncDepIo {
  return { stat: (p) => fakeFs.stat(p), hash: (p) => fakeFs.hash(p), list: () => ({ kind: 'missing' }) };
}

test('never stale, never spuriously invalid: coarse timestamps, same-size edits, restored mtimes', () => {
  fc.assert(
    fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) =>
      run(ops, (fakeFs, deps) => checkDepsSync(deps, { io: syncIo(fakeFs), nowNs: () => fakeFs.nowNs })),
    ),
    { numRuns: 400 },
  );
});

test('the async validator agrees with the sync one on the same histories', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 40 }), async (ops) => {
      const pending: Array<Promise<void>> = [];
      // Each async check runs later against a frozen copy of the file system at that step.
      run(ops, (fakeFs, deps) => {
        const sync = checkDepsSync(deps, { io: syncIo(fakeFs), nowNs: () => fakeFs.nowNs });
        const at = fakeFs.nowNs;
        const snapshot = new FakeFs();
        snapshot.files = new Map(fakeFs.files);
        snapshot.nowNs = at;
        const snapshotIo: AsyncDepIo = {
          stat: async (p) => snapshot.stat(p),
          hash: async (p) => snapshot.hash(p),
          list: async () => ({ kind: 'missing' }),
        };
        pending.push(
          checkDeps(deps, { io: snapshotIo, nowNs: () => at }).then((check) => assert.equal(check.valid, sync.valid)),
        );
        return sync;
      });
      await Promise.all(pending);
    }),
    { numRuns: 150 },
  );
});

test('a clock stepped back since the read makes an exact stat match untrusted', () => {
  const fakeFs = new FakeFs();
  fakeFs.write(PATHS[1], 'aaaa'); // stamped 1000 s
  fakeFs.nowNs = 1_005n * SECOND; // read 5 s later: settled
  const deps = fakeFs.record().filter((d) => d.exists);
  fakeFs.nowNs = 1_000n * SECOND + 300_000_000n; // NTP steps the clock back into the write's second
  fakeFs.write(PATHS[1], 'bbbb'); // identical size, mtime, ctime, inode
  const check = checkDepsSync(deps, { io: syncIo(fakeFs), nowNs: () => fakeFs.nowNs });
  assert.deepEqual(check, { valid: false, path: PATHS[1], reason: 'content changed' });
});
