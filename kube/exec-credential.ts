/**
 * Runs a kubeconfig `exec` credential plugin (client.authentication.k8s.io
 * ExecCredential) and caches its answer until it expires. Invariants: the
 * plugin's stdout is parsed, never echoed into errors; a failing plugin
 * gives a KUBE_AUTH error naming the command and exit status only.
 */
import { execFile } from 'node:child_process';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { KubeError } from './errors.js';
import type { ExecConfig } from './kubeconfig.js';

export interface ExecCredential {
  readonly token?: string;
  readonly clientCertificateData?: string;
  readonly clientKeyData?: string;
  /** Epoch ms; undefined means valid until the server says 401. */
  readonly expiresAt?: number;
}

export async function runExecPlugin(
  exec: ExecConfig,
  clusterServer: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ExecCredential> {
  const command =
    !isAbsolute(exec.command) && exec.command.includes('/') ? resolvePath(exec.baseDir, exec.command) : exec.command;
  const execInfo = {
    apiVersion: exec.apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false, cluster: { server: clusterServer } },
  };
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  for (const { name, value } of exec.env) childEnv[name] = value;
  childEnv['KUBERNETES_EXEC_INFO'] = JSON.stringify(execInfo);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(command, [...exec.args], { env: childEnv, timeout: 60_000, maxBuffer: 1 << 20 }, (err, out) => {
      if (err !== null) {
        const status = typeof err.code === 'number' ? `exit status ${err.code}` : (err.code ?? 'failed');
        reject(new KubeError('KUBE_AUTH', `exec credential plugin ${exec.command}: ${status}`));
      } else {
        resolve(out);
      }
    });
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new KubeError(
      'KUBE_AUTH',
      `exec credential plugin ${exec.command}: output is not an ExecCredential JSON document`,
    );
  }
  const status = (parsed as { status?: Record<string, unknown> } | null)?.status;
  if (status === undefined || status === null || typeof status !== 'object') {
    throw new KubeError('KUBE_AUTH', `exec credential plugin ${exec.command}: output has no status`);
  }
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const expiry = str(status['expirationTimestamp']);
  const expiresAt = expiry !== undefined ? Date.parse(expiry) : undefined;
  const cred: ExecCredential = {
    token: str(status['token']),
    clientCertificateData: str(status['clientCertificateData']),
    clientKeyData: str(status['clientKeyData']),
    expiresAt: expiresAt !== undefined && Number.isFinite(expiresAt) ? expiresAt : undefined,
  };
  if (cred.token === undefined && (cred.clientCertificateData === undefined || cred.clientKeyData === undefined)) {
    throw new KubeError(
      'KUBE_AUTH',
      `exec credential plugin ${exec.command}: status has neither a token nor a client certificate and key`,
    );
  }
  return cred;
}
