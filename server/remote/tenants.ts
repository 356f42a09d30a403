/**
 * Tenants of the remote render service and their bearer tokens (hazard 30).
 * The tokens file (JSON, mode 0600, or 0640/0440 for a Kubernetes Secret
 * mounted with fsGroup; refused when others may read it) lists
 * tenants; each has a token given as its SHA-256 (`tokenSha256`, preferred:
 * the file then holds no secret) or in clear (`token`, at least 32 characters
 * of [A-Za-z0-9_-], i.e. ≥128 bits when random). A request's token is hashed
 * and compared with every tenant's hash in constant time, without early exit,
 * so timing reveals neither which tenant matched nor how much of a token was
 * right. Tokens are never logged and never kept in clear after loading.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

export interface TenantConfig {
  /** [a-z0-9][a-z0-9_-]{0,62}: also the tenant's blob-store directory name. */
  name: string;
  /** Ext vars / TLAs given as code (--ext-code, --tla-code) are evaluated as code; otherwise bound as strings. */
  allowCode: boolean;
  /** Renders of this tenant running at once. */
  maxConcurrent: number;
  /** Renders of this tenant waiting for a slot; one more is refused as busy. */
  maxQueued: number;
  /** Hosts remote (https/oci) imports may reach; empty = remote imports refused. */
  importHosts: string[];
}

interface TenantEntry {
  tenant: TenantConfig;
  tokenHash: Buffer;
}

export class TenantsError extends Error {}

const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const CLEAR_TOKEN_RE = /^[A-Za-z0-9_-]{32,512}$/;
const HASH_RE = /^[0-9a-f]{64}$/;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export function tokenSha256Hex(token: string): string {
  return sha256(token).toString('hex');
}

function positive(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new TenantsError(`${field}: expected a non-negative integer`);
  return value;
}

export class Tenants {
  private constructor(private readonly entries: TenantEntry[]) {}

  static fromJson(text: string, where: string): Tenants {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new TenantsError(`${where}: not JSON: ${(err as Error).message}`);
    }
    const list = (doc as { tenants?: unknown } | null)?.tenants;
    if (!Array.isArray(list) || list.length === 0) throw new TenantsError(`${where}: expected {"tenants": [ ... ]}`);
    const seen = new Set<string>();
    const hashes = new Set<string>();
    const entries = list.map((raw: unknown, i): TenantEntry => {
      const field = `${where}: tenants[${i}]`;
      if (typeof raw !== 'object' || raw === null) throw new TenantsError(`${field}: expected an object`);
      const t = raw as Record<string, unknown>;
      for (const key of Object.keys(t)) {
        if (!['name', 'token', 'tokenSha256', 'allowCode', 'maxConcurrent', 'maxQueued', 'importHosts'].includes(key))
          throw new TenantsError(`${field}.${key}: unknown field`);
      }
      if (typeof t.name !== 'string' || !NAME_RE.test(t.name))
        throw new TenantsError(`${field}.name: expected [a-z0-9][a-z0-9_-]{0,62}`);
      if (seen.has(t.name)) throw new TenantsError(`${field}.name: tenant "${t.name}" is listed twice`);
      seen.add(t.name);
      let tokenHash: Buffer;
      if (typeof t.tokenSha256 === 'string' && t.token === undefined) {
        if (!HASH_RE.test(t.tokenSha256))
          throw new TenantsError(`${field}.tokenSha256: expected 64 lowercase hex digits`);
        tokenHash = Buffer.from(t.tokenSha256, 'hex');
      } else if (typeof t.token === 'string' && t.tokenSha256 === undefined) {
        // The message never quotes the token.
        if (!CLEAR_TOKEN_RE.test(t.token))
          throw new TenantsError(`${field}.token: expected at least 32 characters of [A-Za-z0-9_-] (≥128 random bits)`);
        tokenHash = sha256(t.token);
      } else {
        throw new TenantsError(`${field}: give exactly one of token or tokenSha256`);
      }
      const hex = tokenHash.toString('hex');
      if (hashes.has(hex)) throw new TenantsError(`${field}: two tenants share a token`);
      hashes.add(hex);
      if (t.allowCode !== undefined && typeof t.allowCode !== 'boolean')
        throw new TenantsError(`${field}.allowCode: expected a boolean`);
      const hosts = t.importHosts ?? [];
      if (!Array.isArray(hosts) || hosts.some((h) => typeof h !== 'string' || h === ''))
        throw new TenantsError(`${field}.importHosts: expected an array of host names`);
      return {
        tokenHash,
        tenant: {
          name: t.name,
          allowCode: t.allowCode === true,
          maxConcurrent: Math.max(1, positive(t.maxConcurrent, `${field}.maxConcurrent`, 2)),
          maxQueued: positive(t.maxQueued, `${field}.maxQueued`, 8),
          importHosts: hosts as string[],
        },
      };
    });
    return new Tenants(entries);
  }

  /** Loads the tokens file, refusing one that group or others could read or write. */
  static load(path: string): Tenants {
    let mode: number;
    try {
      mode = statSync(path).mode;
    } catch (err) {
      throw new TenantsError(`cannot read the tokens file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    // Group read is tolerated: Kubernetes mounts Secrets for a non-root user as 0440 with fsGroup.
    if ((mode & 0o027) !== 0)
      throw new TenantsError(
        `the tokens file ${path} has mode ${(mode & 0o777).toString(8)}: others must have no access and the group no write (chmod 600 ${path})`,
      );
    return Tenants.fromJson(readFileSync(path, 'utf8'), path);
  }

  get names(): string[] {
    return this.entries.map((e) => e.tenant.name);
  }

  /** The tenant whose token the Authorization header carries, or undefined. Constant time in the token. */
  authenticate(header: string | undefined): TenantConfig | undefined {
    const given = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    // Hashing first makes every comparison 32 bytes long, whatever was sent.
    const hash = sha256(given);
    let found: TenantConfig | undefined;
    for (const entry of this.entries) {
      const same = timingSafeEqual(hash, entry.tokenHash);
      if (same && given !== '' && found === undefined) found = entry.tenant;
    }
    return found;
  }
}
